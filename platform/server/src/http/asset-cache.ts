import { readFile, stat } from 'node:fs/promises';

/** What `AssetCache.read` found: the bytes, a file too large to hold (stream it), or nothing servable. */
export type AssetRead = { kind: 'bytes'; body: Buffer } | { kind: 'large' } | { kind: 'missing' };

/**
 * The brand sites' hashed build assets (`/assets/<name>-<hash>.js` and their `.gz` and `.br`), held in memory once read. A name
 * carries its content's hash, so a rebuild writes new names and a held file never goes stale. Bounded: at most
 * `limitBytes` in all (later files are read from disk each time) and no file over `maxFileBytes` (streamed instead).
 * A missing file is not remembered, so probing for names cannot grow it.
 *
 * Each asset answered from disk cost a stat, an open, reads and a close, and a read stream through Node's stream
 * machinery; from memory it is one write.
 */
export class AssetCache {
  readonly #files = new Map<string, Buffer>();
  #bytes = 0;

  constructor(
    readonly limitBytes = 128 * 1024 * 1024,
    readonly maxFileBytes = 4 * 1024 * 1024,
  ) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  async read(file: string): Promise<AssetRead> {
    const held = this.#files.get(file);
    if (held) return { kind: 'bytes', body: held };
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return { kind: 'missing' };
    if (info.size > this.maxFileBytes) return { kind: 'large' };
    const body = await readFile(file).catch(() => null);
    if (!body) return { kind: 'missing' };
    // Two first requests for one file may both read it; the first to finish is kept.
    if (!this.#files.has(file) && this.#bytes + body.length <= this.limitBytes) {
      this.#files.set(file, body);
      this.#bytes += body.length;
    }
    return { kind: 'bytes', body };
  }
}
