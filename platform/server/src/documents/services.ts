import { PassThrough, pipeline, type Readable } from 'node:stream';
import { writeCsv } from './csvWriter';
import type { PdfDocumentSpec } from './pdf';
import type { SheetSpec } from './sheet';

/** PDF documents (statements, letters) for plugins: see renderPdf. */
export interface PdfService {
  render(spec: PdfDocumentSpec): Readable;
}

/** Spreadsheet exports for plugins: the same sheet as .xlsx (writeXlsx) or CSV (writeCsv). */
export interface SheetService {
  xlsx(spec: SheetSpec): Readable;
  csv(spec: SheetSpec, options?: { bom?: boolean }): Readable;
}

/**
 * A stream at once, its content from a module loaded on first use: pdfkit and exceljs take about a second to load
 * together, which every server start and every test server would otherwise pay.
 */
function deferred(open: () => Promise<Readable>): Readable {
  const out = new PassThrough();
  open().then(
    (source) => pipeline(source, out, () => {}),
    (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return out;
}

export const pdfService: PdfService = {
  render: (spec) => deferred(async () => (await import('./pdf')).renderPdf(spec)),
};

export const sheetService: SheetService = {
  xlsx: (spec) => deferred(async () => (await import('./xlsxWriter')).writeXlsx(spec)),
  csv: writeCsv,
};
