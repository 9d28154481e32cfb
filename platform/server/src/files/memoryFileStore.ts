import { Readable } from 'node:stream';
import { bodyBytes } from './body';
import type { FileBody, FileEntry, FileInfo, FileStore, PutOptions, StoredFile } from './fileStore';
import { assertFileKey, assertFilePrefix, compareKeys } from './keys';

interface Entry {
  data: Buffer;
  contentType: string;
  lastModified: Date;
}

/** Files in a Map: the test double, and the store of a server without a data directory. */
export class MemoryFileStore implements FileStore {
  readonly kind = 'memory';
  private readonly files = new Map<string, Entry>();

  async put(key: string, body: FileBody, options: PutOptions): Promise<{ key: string; size: number }> {
    assertFileKey(key);
    // Read the whole body before storing, so a stream that fails leaves the previous file (or none).
    const data = await bodyBytes(body);
    this.files.set(key, { data, contentType: options.contentType, lastModified: new Date() });
    return { key, size: data.length };
  }

  async get(key: string): Promise<StoredFile | null> {
    const info = await this.head(key);
    const entry = this.files.get(key);
    return info && entry ? { ...info, body: Readable.from([entry.data]) } : null;
  }

  async head(key: string): Promise<FileInfo | null> {
    assertFileKey(key);
    const entry = this.files.get(key);
    return entry ? { key, size: entry.data.length, contentType: entry.contentType, lastModified: entry.lastModified } : null;
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    this.files.delete(key);
  }

  async *list(prefix = ''): AsyncIterable<FileEntry> {
    assertFilePrefix(prefix);
    const keys = [...this.files.keys()].filter((k) => k.startsWith(prefix)).sort(compareKeys);
    for (const key of keys) {
      const entry = this.files.get(key);
      if (entry) yield { key, size: entry.data.length, lastModified: entry.lastModified };
    }
  }
}
