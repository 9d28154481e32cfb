import { PassThrough, type Readable } from 'node:stream';
import type { CellValue } from '@portal/core';
import ExcelJS from 'exceljs';
import { dayOf, eachRow, type SheetColumn, type SheetFormat, type SheetSpec, safeSheetName } from './sheet';

const NUMBER_FORMATS: Record<SheetFormat, string | undefined> = {
  money: '#,##0.00',
  date: 'yyyy-mm-dd',
  text: '@',
  number: undefined,
};
const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping the characters XML 1.0 forbids is the point
const XML_ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

type XlsxValue = string | number | boolean | Date | null;

/** The cell value exceljs should write for a column's format. */
function xlsxValue(value: CellValue, format: SheetFormat | undefined): XlsxValue {
  if (value === null || value === undefined || value === '') return null;
  // A control character would make the sheet XML unreadable to Excel.
  if (typeof value === 'string') value = value.replace(XML_ILLEGAL, '');
  switch (format) {
    case 'money':
      return typeof value === 'number' ? value / 100 : value;
    case 'date':
      return dayOf(value) ?? value;
    case 'text':
      return value instanceof Date ? value.toISOString() : String(value);
    default:
      return value;
  }
}

function defaultWidth(column: SheetColumn): number {
  const byFormat = column.format === 'date' ? 12 : column.format === 'money' ? 14 : 10;
  return Math.min(60, Math.max(byFormat, String(column.header).length + 2));
}

/**
 * Waits until the reader has taken what is buffered (or gave up), so a slow download does not pile rows up in memory.
 * exceljs does not pass backpressure back to its caller, so the output stream is watched instead; one turn of the event
 * loop first lets the zip compression catch up with the rows just committed.
 */
async function drained(out: PassThrough): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (!out.writableNeedDrain || out.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

async function write(spec: SheetSpec, out: PassThrough): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // The header row stays in view while scrolling.
  const sheet = workbook.addWorksheet(safeSheetName(String(spec.sheetName)), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((c) => {
    const numFmt = NUMBER_FORMATS[c.format ?? 'number'];
    return { header: String(c.header), key: c.key, width: c.width ?? defaultWidth(c), ...(numFmt ? { style: { numFmt } } : {}) };
  });
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  for await (const batch of eachRow(spec.rows)) {
    if (out.destroyed) return;
    for (const row of batch) {
      const added = sheet.addRow(spec.columns.map((c) => xlsxValue(row[c.key], c.format)));
      spec.columns.forEach((c, i) => {
        // Unformatted dates carry their time; a format set per cell keeps the column's others as they are.
        if (!c.format && row[c.key] instanceof Date) added.getCell(i + 1).numFmt = DATE_TIME_FORMAT;
      });
      added.commit();
    }
    await drained(out);
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * An .xlsx workbook of one sheet, streamed through exceljs's WorkbookWriter as the rows arrive: rows are committed
 * as they are written and the file is zipped on the way out, so a large export is never held whole.
 */
export function writeXlsx(spec: SheetSpec): Readable {
  const out = new PassThrough();
  write(spec, out).catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
