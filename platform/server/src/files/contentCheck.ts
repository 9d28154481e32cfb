import type { Readable } from 'node:stream';
import { type Message, msg } from '@portal/core';
import { fileTypeFromBuffer } from 'file-type';

/** The kinds of document members upload (receipts, bills, message attachments): extension → what its bytes must be. */
const EXPECTED = {
  pdf: { detected: 'pdf', contentType: 'application/pdf', label: 'a PDF document' },
  gif: { detected: 'gif', contentType: 'image/gif', label: 'a GIF image' },
  jpeg: { detected: 'jpg', contentType: 'image/jpeg', label: 'a JPEG image' },
  jpg: { detected: 'jpg', contentType: 'image/jpeg', label: 'a JPEG image' },
  png: { detected: 'png', contentType: 'image/png', label: 'a PNG image' },
  doc: { detected: 'cfb', contentType: 'application/msword', label: 'a Word document' },
  docx: { detected: 'docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', label: 'a Word document' },
  xls: { detected: 'cfb', contentType: 'application/vnd.ms-excel', label: 'an Excel workbook' },
  xlsx: { detected: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', label: 'an Excel workbook' },
} as const;
export type DocumentExtension = keyof typeof EXPECTED;
export const DOCUMENT_EXTENSIONS = Object.keys(EXPECTED) as DocumentExtension[];

/** The extension of a file name, lower case, without the dot ('' when it has none). */
export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

/**
 * Legacy .doc and .xls are both OLE2 compound files ('cfb' to file-type). Their directory names the main stream in
 * UTF-16: "WordDocument" for Word, "Workbook" (or "Book" before Excel 97) for Excel; a compound file without the
 * right one (an .msi, an Outlook .msg, a .ppt ...) is refused.
 */
const utf16 = (s: string) => Buffer.from(s, 'utf16le');
const CFB_STREAMS: Partial<Record<DocumentExtension, Buffer[]>> = {
  doc: [utf16('WordDocument')],
  xls: [utf16('Workbook'), utf16('Book\0')],
};

export type ContentCheck = { ok: true; contentType: string } | { ok: false; message: Message };

const notAllowed = (fileName: string): ContentCheck => ({ ok: false, message: msg("'{{fileName}}' is not an allowed file type.", { fileName }) });
const mismatch = (fileName: string, label: string): ContentCheck => ({
  ok: false,
  message: msg("The content of '{{fileName}}' is not {{label}}.", { fileName, label: msg(label) }),
});

/**
 * Checks a file's bytes against its name: the content must be what the extension says (file-type reads the magic
 * numbers; for docx and xlsx it looks inside the zip for the Office part that makes it one), whatever the browser
 * claimed. A renamed .exe, a text file called .pdf or a .docx that is an .xlsx is refused.
 */
export async function checkContent(fileName: string, bytes: Buffer): Promise<ContentCheck> {
  const expected = EXPECTED[extensionOf(fileName) as DocumentExtension];
  if (!expected) return notAllowed(fileName);
  const found = await fileTypeFromBuffer(bytes);
  const streams = CFB_STREAMS[extensionOf(fileName) as DocumentExtension];
  const matches = found?.ext === expected.detected && (!streams || streams.some((s) => bytes.includes(s)));
  return matches ? { ok: true, contentType: expected.contentType } : mismatch(fileName, expected.label);
}

/** Whether any of the needles occurs in the stream (read once, a needle may straddle chunks); the stream is consumed. */
export async function streamIncludes(stream: AsyncIterable<Buffer | Uint8Array | string>, needles: readonly Buffer[]): Promise<boolean> {
  const keep = Math.max(...needles.map((n) => n.length)) - 1;
  let tail = Buffer.alloc(0);
  let found = false;
  for await (const chunk of stream) {
    if (found) continue;
    const buf = Buffer.concat([tail, typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk)]);
    if (needles.some((n) => buf.includes(n))) found = true;
    tail = buf.subarray(Math.max(0, buf.length - keep));
  }
  return found;
}

/** How much of a file the type check reads: Office zips name their parts first, well within it. */
const HEAD_BYTES = 1024 * 1024;

/** The first `max` bytes of a stream (fewer when it is shorter); the rest is not read and the stream is destroyed. */
async function readHead(stream: Readable, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
      parts.push(b);
      size += b.length;
      if (size >= max) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts).subarray(0, max);
}

/**
 * The same check for a file too large to hold: `open` gives a fresh stream of its bytes each time it is called.
 * file-type looks at the first megabyte (magic numbers; an Office zip's first parts); a compound file's stream names are
 * searched in one streamed pass.
 */
export async function checkContentStream(fileName: string, open: () => Promise<Readable>): Promise<ContentCheck> {
  const ext = extensionOf(fileName) as DocumentExtension;
  const expected = EXPECTED[ext];
  if (!expected) return notAllowed(fileName);
  const found = await fileTypeFromBuffer(await readHead(await open(), HEAD_BYTES));
  if (found?.ext !== expected.detected) return mismatch(fileName, expected.label);
  const streams = CFB_STREAMS[ext];
  if (streams && !(await streamIncludes(await open(), streams))) return mismatch(fileName, expected.label);
  return { ok: true, contentType: expected.contentType };
}
