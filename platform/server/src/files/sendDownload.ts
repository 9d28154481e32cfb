import type { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';
import { plainLetters } from '../db/search';
import { SENT, type Sent } from '../http/context';

export interface Download {
  /** The name the browser saves under; any folder part is dropped. */
  fileName: string;
  contentType: string;
  body: Readable | Buffer | Uint8Array;
  /** Bytes in a streamed body, when known (a stored file's size): sent as Content-Length. */
  size?: number;
}

/** The name without folders or control characters; 'download' when nothing is left. */
export function safeFileName(name: string): string {
  const base =
    name
      .split(/[\\/]/)
      .pop()
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters have no place in a file name
      ?.replace(/[\u0000-\u001f\u007f]/g, '')
      // A lone surrogate cannot be encoded as UTF-8.
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '_')
      .trim() ?? '';
  return base.replace(/^\.+/, '') || 'download';
}

/**
 * An ASCII stand-in for clients that do not read filename*: accents dropped, the letters that have none written plain
 * (Ł→L, ß→ss), anything else non-ASCII as '_'.
 */
function asciiFallback(name: string): string {
  return plainLetters(name.normalize('NFKD'))
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\u0020-\u007e]/g, '_');
}

/** x-filename carries UTF-8 percent-encoded where a header cannot hold the character (and '%' itself). */
export function encodeFileNameHeader(name: string): string {
  return name.replace(/[^\u0020-\u0024\u0026-\u007e]+/g, (run) => encodeURIComponent(run));
}

/**
 * Sends a file from a route handler: Content-Type, Content-Disposition (attachment, with an RFC 5987 filename* when
 * the name is not plain ASCII), x-filename (the portal's client names downloads from it) and no caching, since
 * downloads hold member data. Return its result from the handler.
 */
export function sendDownload(reply: FastifyReply, download: Download): Sent {
  const name = safeFileName(download.fileName);
  reply
    .header('content-type', download.contentType)
    .header('content-disposition', contentDisposition(name, { fallback: asciiFallback(name) }))
    .header('x-filename', encodeFileNameHeader(name))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  if (download.size !== undefined) reply.header('content-length', download.size);
  reply.send(download.body instanceof Uint8Array && !Buffer.isBuffer(download.body) ? Buffer.from(download.body) : download.body);
  return SENT;
}
