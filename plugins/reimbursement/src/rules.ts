/**
 * The reimbursement rules of spec 02 section 5, shared by the page and the server (zod-free: the page checks a
 * choice before any upload starts). Messages are the spec's, word for word.
 */
export const ReimbursementMessages = {
  noFile: 'Please upload a copy of your receipt or bill.',
  dateAndAmount: 'Please input service date and amount.',
  futureDate: "Service date can't be in future.",
  extension: 'Please use a valid file extension: pdf, gif, jpeg, jpg, png, doc, docx, xls, xlsx',
  tooMany: 'Maximum of 10 files can be uploaded simultaneously.',
  tooLarge: 'Maximum file size (1GB) exceeded.',
  unexpected: 'An unexpected error has occured.',
  /** The server's answer to create (its MsgText), counting the request's files so far: one file, then several. */
  created: 'Your reimbursement request has been submitted with its file.',
  createdFiles: 'Your reimbursement request has been submitted with its {{count}} files.',
} as const;

export const REIMBURSEMENT_EXTENSIONS = ['pdf', 'gif', 'jpeg', 'jpg', 'png', 'doc', 'docx', 'xls', 'xlsx'] as const;
export type ReimbursementExtension = (typeof REIMBURSEMENT_EXTENSIONS)[number];
/** Largest amount of one file: $100 million, the claims plugin's MAX_AMOUNT (each request is a bill there). */
export const MAX_AMOUNT = 100_000_000;
/** The requests list's page sizes: the member lists' (spec 01, "Page sizes offered"), 20 a page by default. */
export const REQUEST_PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const REQUEST_PAGE_SIZE = 20;
/** Files per request (spec 02 section 9). */
export const MAX_FILES = 10;
/** Bytes per file: 1 GB (spec 02 section 9). */
export const MAX_FILE_BYTES = 1024 * 1024 * 1024;
/** Bytes per upload chunk: progress moves and an interrupted upload resumes at this granularity. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** The extension of a file name, lower case, without the dot ('' when it has none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * A file name as it is kept: in the name before the extension, dots, spaces, commas, colons and hyphens each become a
 * hyphen (spec 02 section 5); the extension is kept, lower case. 'Dr. Smith, 3:30 - visit.PDF' → 'Dr--Smith--3-30---visit.pdf'.
 * Slashes and backslashes (which no browser's file name has, and which would make folders of the file's key) become
 * hyphens too.
 */
export function sanitizeFileName(fileName: string): string {
  const ext = extensionOf(fileName);
  const base = ext ? fileName.slice(0, fileName.length - ext.length - 1) : fileName;
  const clean = base.replace(/[.\s,:\-/\\]/g, '-');
  return ext ? `${clean}.${ext}` : clean;
}

export interface FileChoice {
  name: string;
  size: number;
}

/** The first rule a choice of files breaks (in the spec's order), or null. An empty file (0 bytes) is no copy of a receipt. */
export function checkFiles(files: readonly FileChoice[]): string | null {
  if (files.length === 0 || files.some((f) => f.size === 0)) return ReimbursementMessages.noFile;
  if (files.length > MAX_FILES) return ReimbursementMessages.tooMany;
  if (files.some((f) => !(REIMBURSEMENT_EXTENSIONS as readonly string[]).includes(extensionOf(f.name)))) return ReimbursementMessages.extension;
  if (files.some((f) => f.size > MAX_FILE_BYTES)) return ReimbursementMessages.tooLarge;
  return null;
}

/** The first rule a service date ('YYYY-MM-DD' or empty) and amount (text or number) break, or null. `today` is 'YYYY-MM-DD'. */
export function checkDateAndAmount(serviceDate: string, amount: string | number | null, today: string): string | null {
  const amountText = amount === null ? '' : String(amount).trim();
  if (!serviceDate || !amountText) return ReimbursementMessages.dateAndAmount;
  const n = Number(amountText.replace(/[$,]/g, ''));
  if (!Number.isFinite(n) || n <= 0) return ReimbursementMessages.dateAndAmount;
  if (serviceDate > today) return ReimbursementMessages.futureDate;
  return null;
}
