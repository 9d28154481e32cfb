import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** The creation date: the only date string pdfkit writes (the info dictionary refers to it as an object). */
const CREATION_DATE = /\(D:\d{14}Z\)/;
const FILE_ID = /\/ID \[<[0-9a-f]{32}> <[0-9a-f]{32}>\]/;

const pdfDate = (day: string) => `D:${day.replaceAll('-', '')}000000Z`;

/**
 * The PDF service stamps each file with the time it was made (CreationDate, and the file ID derived from it).
 * A generated document must be the same bytes every time for the same data, so both are replaced, with strings of
 * the same length (the cross-reference offsets stay right): the date by the document's own date, the ID by a hash
 * of the rest of the file.
 */
export async function deterministicPdf(pdf: Readable, day: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of pdf) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  let text = Buffer.concat(chunks).toString('latin1');
  if (!CREATION_DATE.test(text) || !FILE_ID.test(text)) throw new Error('documents: the PDF has no creation date or file ID to fix');
  text = text.replace(CREATION_DATE, `(${pdfDate(day)})`);
  const id = createHash('md5').update(text.replace(FILE_ID, '')).digest('hex');
  text = text.replace(FILE_ID, `/ID [<${id}> <${id}>]`);
  return Buffer.from(text, 'latin1');
}
