import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type Dirent } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { bodyStream } from './body';
import type { FileBody, FileEntry, FileInfo, FileStore, PutOptions, StoredFile } from './fileStore';
import { assertFileKey, assertFilePrefix, compareKeys } from './keys';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

const isMissing = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  // ENOTDIR: a part of the key names a file, so nothing can be under it.
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Files in a directory (default `${DATA_DIR}/files`), each at its key's path, with its content type in a sidecar
 * under .meta/. Uploads go to .tmp/ and are renamed into place, so a failed upload leaves nothing behind and a reader
 * never sees half a file. Keys can't start a part with a dot, so neither folder can be named by a key. Unlike S3, a
 * key cannot also be a folder of other keys ('a' and 'a/b').
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';
  constructor(readonly root: string) {}

  private dataPath(key: string): string {
    return join(this.root, ...key.split('/'));
  }

  private metaPath(key: string): string {
    return `${join(this.root, '.meta', ...key.split('/'))}.json`;
  }

  async put(key: string, body: FileBody, options: PutOptions): Promise<{ key: string; size: number }> {
    assertFileKey(key);
    const tmpDir = join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const id = randomUUID();
    const tmpData = join(tmpDir, id);
    const tmpMeta = join(tmpDir, `${id}.json`);
    const out = createWriteStream(tmpData, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(bodyStream(body), out);
      await writeFile(tmpMeta, JSON.stringify({ contentType: options.contentType }), { mode: 0o600 });
      const { size } = await stat(tmpData);
      const dataPath = this.dataPath(key);
      const metaPath = this.metaPath(key);
      await mkdir(dirname(dataPath), { recursive: true });
      await mkdir(dirname(metaPath), { recursive: true });
      // Metadata first: a reader that finds the new file also finds its content type.
      await rename(tmpMeta, metaPath);
      await rename(tmpData, dataPath);
      return { key, size };
    } finally {
      // A failed body rejects the pipeline while the temporary file may still be opening: the removal waits for the
      // file's stream to close, or the open would create the file after it was removed (a temporary file left behind).
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
    }
  }

  private async contentType(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(this.metaPath(key), 'utf8')) as { contentType?: unknown };
      return typeof meta.contentType === 'string' ? meta.contentType : DEFAULT_CONTENT_TYPE;
    } catch (e) {
      if (isMissing(e)) return DEFAULT_CONTENT_TYPE;
      throw e;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    // Open first, then stat the open file: a delete or replace in between cannot mismatch the size and the bytes.
    const handle = await open(this.dataPath(key), 'r').catch((e: unknown) => {
      if (isMissing(e)) return null;
      throw e;
    });
    if (!handle) return null;
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const contentType = await this.contentType(key);
      return { key, size: info.size, contentType, lastModified: info.mtime, body: handle.createReadStream() };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async head(key: string): Promise<FileInfo | null> {
    assertFileKey(key);
    try {
      const info = await stat(this.dataPath(key));
      if (!info.isFile()) return null;
      return { key, size: info.size, contentType: await this.contentType(key), lastModified: info.mtime };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    for (const path of [this.dataPath(key), this.metaPath(key)]) {
      await rm(path, { force: true }).catch((e: unknown) => {
        if (!isMissing(e)) throw e;
      });
    }
  }

  async *list(prefix = ''): AsyncIterable<FileEntry> {
    assertFilePrefix(prefix);
    // Walk only the deepest folder the prefix names whole; the rest of the prefix filters names.
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    for await (const entry of this.walk(folder)) if (entry.key.startsWith(prefix)) yield entry;
  }

  /** Files under a folder in key order: names sorted with a folder's name read as 'name/', as its keys continue. */
  private async *walk(folder: string): AsyncGenerator<FileEntry> {
    const dir = folder ? join(this.root, ...folder.split('/')) : this.root;
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (isMissing(e)) return;
      throw e;
    }
    const names = dirents
      .filter((d) => !d.name.startsWith('.') && (d.isFile() || d.isDirectory()))
      .map((d) => ({ name: d.name, isDir: d.isDirectory(), sortKey: d.isDirectory() ? `${d.name}/` : d.name }))
      .sort((a, b) => compareKeys(a.sortKey, b.sortKey));
    for (const { name, isDir } of names) {
      const key = folder ? `${folder}/${name}` : name;
      if (isDir) {
        yield* this.walk(key);
        continue;
      }
      try {
        const info = await stat(join(dir, name));
        yield { key, size: info.size, lastModified: info.mtime };
      } catch (e) {
        // Deleted while listing: it is simply not there.
        if (!isMissing(e)) throw e;
      }
    }
  }
}
