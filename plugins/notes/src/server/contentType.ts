import { fileTypeFromBuffer } from 'file-type';
import { type AttachmentExtension, extensionOf } from '../contract';

/** What the content of each allowed extension must be, and the content type a download is sent with. */
const EXPECTED: Record<AttachmentExtension, { detected: string; contentType: string; label: string }> = {
  pdf: { detected: 'pdf', contentType: 'application/pdf', label: 'a PDF document' },
  gif: { detected: 'gif', contentType: 'image/gif', label: 'a GIF image' },
  jpeg: { detected: 'jpg', contentType: 'image/jpeg', label: 'a JPEG image' },
  jpg: { detected: 'jpg', contentType: 'image/jpeg', label: 'a JPEG image' },
  png: { detected: 'png', contentType: 'image/png', label: 'a PNG image' },
  doc: { detected: 'cfb', contentType: 'application/msword', label: 'a Word document' },
  docx: { detected: 'docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', label: 'a Word document' },
  xls: { detected: 'cfb', contentType: 'application/vnd.ms-excel', label: 'an Excel workbook' },
  xlsx: { detected: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', label: 'an Excel workbook' },
};

/**
 * Legacy .doc and .xls are both OLE2 compound files ('cfb' to file-type). Their directory names the main stream in
 * UTF-16: "WordDocument" for Word, "Workbook" (or "Book" before Excel 97) for Excel; a compound file without the
 * right one (an .msi, an Outlook .msg, a .ppt ...) is refused.
 */
const utf16 = (s: string) => Buffer.from(s, 'utf16le');
const CFB_STREAMS: Partial<Record<AttachmentExtension, Buffer[]>> = {
  doc: [utf16('WordDocument')],
  xls: [utf16('Workbook'), utf16('Book\0')],
};

export type ContentCheck = { ok: true; contentType: string } | { ok: false; message: string };

/**
 * Checks a file's bytes against its name: the content must be what the extension says (file-type reads the magic
 * numbers; for docx and xlsx it looks inside the zip for the Office part that makes it one), whatever the browser
 * claimed. A renamed .exe, a text file called .pdf or a .docx that is an .xlsx is refused.
 */
export async function checkContent(fileName: string, bytes: Buffer): Promise<ContentCheck> {
  const ext = extensionOf(fileName) as AttachmentExtension;
  const expected = EXPECTED[ext];
  if (!expected) return { ok: false, message: `'${fileName}' is not an allowed file type.` };
  const found = await fileTypeFromBuffer(bytes);
  const streams = CFB_STREAMS[ext];
  const matches = found?.ext === expected.detected && (!streams || streams.some((s) => bytes.includes(s)));
  if (!matches) return { ok: false, message: `The content of '${fileName}' is not ${expected.label}.` };
  return { ok: true, contentType: expected.contentType };
}
