import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** The creation date: the only date string pdfkit writes (the info dictionary refers to it as an object). */
const CREATION_DATE = /\(D:\d{14}Z\)/;
const FILE_ID = /\/ID \[<[0-9a-f]{32}> <[0-9a-f]{32}>\]/;

/** A day ('YYYY-MM-DD') as a PDF date at midnight UTC: the same length as the date pdfkit writes. */
function pdfDate(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`documents: a PDF's creation day must be YYYY-MM-DD, not ${JSON.stringify(day)}`);
  return `D:${day.replaceAll('-', '')}000000Z`;
}

/** Replaces the first match of `pattern` by `replacement`, which must be as long (the cross-reference offsets stay right). */
function replaceSameLength(text: string, pattern: RegExp, replacement: string): string {
  const found = pattern.exec(text);
  if (!found) throw new Error('documents: the PDF has no creation date or file ID to fix');
  if (found[0].length !== replacement.length)
    throw new Error(`documents: replacing ${JSON.stringify(found[0])} by ${JSON.stringify(replacement)} would move the PDF's objects`);
  return text.slice(0, found.index) + replacement + text.slice(found.index + found[0].length);
}

/**
 * The PDF service stamps each file with the time it was made (CreationDate, and the file ID derived from it).
 * A generated document must be the same bytes every time for the same data, so both are replaced, with strings of
 * the same length (the cross-reference offsets stay right): the date by the document's own date, the ID by a hash
 * of the rest of the file. A replacement of another length throws (a file whose offsets are wrong is malformed):
 * `day` is the document's ISO day ('YYYY-MM-DD'), never a day worded for the reader.
 */
export async function deterministicPdf(pdf: Readable, day: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  let text = Buffer.concat(chunks).toString('latin1');
  if (!CREATION_DATE.test(text) || !FILE_ID.test(text)) throw new Error('documents: the PDF has no creation date or file ID to fix');
  text = replaceSameLength(text, CREATION_DATE, `(${pdfDate(day)})`);
  const id = createHash('md5').update(text.replace(FILE_ID, '')).digest('hex');
  text = replaceSameLength(text, FILE_ID, `/ID [<${id}> <${id}>]`);
  return Buffer.from(text, 'latin1');
}
