import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync } from 'fflate';

/**
 * Small, real files of each kind the tests upload: the bytes a file-type check looks at are genuine (magic numbers,
 * Office zip parts, compound-file stream names), the rest is kept short.
 */
const bytes = (...parts: (string | number[] | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p as number[]))));

const PDF = bytes(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

const CONTENT_TYPES = (main: string, part: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="${part}" ContentType="${main}"/></Types>`;
const ooxml = (main: string, part: string, body: string) =>
  Buffer.from(zipSync({ '[Content_Types].xml': new TextEncoder().encode(CONTENT_TYPES(main, part)), [part.slice(1)]: new TextEncoder().encode(body) }));

/** An OLE2 compound file whose directory names the given stream (UTF-16). */
function compound(stream: string): Buffer {
  const out = Buffer.alloc(1536);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out, 0);
  Buffer.from(`Root Entry`, 'utf16le').copy(out, 512);
  Buffer.from(stream, 'utf16le').copy(out, 640);
  return out;
}

export const fixtures = {
  pdf: async () => PDF,
  png: async () => PNG,
  jpg: async () => JPG,
  gif: async () => GIF,
  docx: async () =>
    ooxml('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', '/word/document.xml', '<w:document xmlns:w="x"/>'),
  xlsx: async () => ooxml('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml', '/xl/workbook.xml', '<workbook/>'),
  doc: async () => compound('WordDocument'),
  xls: async () => compound('Workbook'),
  zip: async () => Buffer.from(zipSync({ 'readme.txt': new TextEncoder().encode('hello') })),
  text: async () => Buffer.from('This is plain text, not a PDF.\n'),
} as const;

/** Every file under a folder of a local file store, data and metadata, its temporary folder left out (none when absent). */
export async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    if (e.name === '.tmp') continue;
    if (e.isDirectory()) out.push(...(await storedFiles(join(dir, e.name))));
    else out.push(join(dir, e.name));
  }
  return out;
}
