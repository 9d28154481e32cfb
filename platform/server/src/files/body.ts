import { Readable } from 'node:stream';
import type { FileBody } from './fileStore';

/** The body as a stream (bytes in memory become a one-chunk stream). */
export function bodyStream(body: FileBody): Readable {
  return body instanceof Readable ? body : Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
}

/** Reads a body whole; a stream that fails rejects. */
export async function bodyBytes(body: FileBody): Promise<Buffer> {
  if (!(body instanceof Readable)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
