import type { Readable } from 'node:stream';

/** What a listing gives per file (S3 listings carry no content type). */
export interface FileEntry {
  key: string;
  size: number;
  lastModified: Date;
}

export interface FileInfo extends FileEntry {
  contentType: string;
}

/** A stored file: its metadata and a stream of its bytes, which the caller must consume or destroy. */
export interface StoredFile extends FileInfo {
  body: Readable;
}

export interface PutOptions {
  contentType: string;
}

/** The body of a put: bytes in memory or a stream (uploads stream straight through, unbuffered where the store allows). */
export type FileBody = Readable | Buffer | Uint8Array;

/**
 * Where the kernel and plugins keep files (uploads, generated documents). Keys are '/'-separated paths checked by
 * assertFileKey; a put replaces the file whole or not at all.
 */
export interface FileStore {
  readonly kind: 'local' | 's3' | 'memory';
  put(key: string, body: FileBody, options: PutOptions): Promise<{ key: string; size: number }>;
  /** The file, or null when there is none under the key. */
  get(key: string): Promise<StoredFile | null>;
  head(key: string): Promise<FileInfo | null>;
  /** Removes the file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Every file whose key starts with the prefix (a plain string prefix, as S3 has it), in key order. */
  list(prefix?: string): AsyncIterable<FileEntry>;
}
