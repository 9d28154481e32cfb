import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { Language, Message } from '@portal/core';
import { writeCsv } from './csvWriter';
import type { PdfDocumentSpec } from './pdf';
import { localiseSheet, type SheetSpec } from './sheet';

/** How the kernel writes a message in a language: its catalogues (`Translator.t`). Without one, English. */
export type Translate = (message: Message, language: Language) => string;

export interface DocumentOptions {
  /** Set by the kernel for plugins (`ctx.services`): a document's words in its `language`. */
  translate?: Translate;
}

/** PDF documents (statements, letters) for plugins: see renderPdf. */
export interface PdfService {
  render(spec: PdfDocumentSpec, options?: DocumentOptions): Readable;
}

/** Spreadsheet exports for plugins: the same sheet as .xlsx (writeXlsx) or CSV (writeCsv). */
export interface SheetService {
  xlsx(spec: SheetSpec, options?: DocumentOptions): Readable;
  csv(spec: SheetSpec, options?: DocumentOptions & { bom?: boolean }): Readable;
}

const english: Translate = (message) => String(message);
const wordsOf =
  (language: Language | undefined, translate: Translate = english) =>
  (m: Message) =>
    translate(m, language ?? 'en');

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
  render: (spec, options) => deferred(async () => (await import('./pdf')).renderPdf(spec, wordsOf(spec.language, options?.translate))),
};

export const sheetService: SheetService = {
  xlsx: (spec, options) => {
    const localised = localiseSheet(spec, wordsOf(spec.language, options?.translate));
    return deferred(async () => (await import('./xlsxWriter')).writeXlsx(localised));
  },
  csv: (spec, options) => writeCsv(localiseSheet(spec, wordsOf(spec.language, options?.translate)), options),
};

/** The services as plugins get them: their documents' words written by the kernel's catalogues. */
export function translatedDocuments(pdf: PdfService, sheets: SheetService, translate: Translate): { pdf: PdfService; sheets: SheetService } {
  return {
    pdf: { render: (spec, options) => pdf.render(spec, { translate, ...options }) },
    sheets: {
      xlsx: (spec, options) => sheets.xlsx(spec, { translate, ...options }),
      csv: (spec, options) => sheets.csv(spec, { translate, ...options }),
    },
  };
}
