import { Readable } from 'node:stream';
import { type CellValue, csvField } from '@portal/core';
import { dayOf, eachRow, type SheetFormat, type SheetSpec } from './sheet';

function csvCell(value: CellValue, format: SheetFormat | undefined): string {
  if (format === 'money' && typeof value === 'number') return (value / 100).toFixed(2);
  if (format === 'date') {
    const day = dayOf(value);
    if (day) return day.toISOString().slice(0, 10);
  }
  if (format === 'text' && value !== null && value !== undefined) return csvField(value instanceof Date ? value.toISOString() : String(value));
  return csvField(value);
}

async function* csvLines(spec: SheetSpec, bom: boolean): AsyncGenerator<string> {
  yield `${bom ? '\uFEFF' : ''}${spec.columns.map((c) => csvField(String(c.header))).join(',')}\r\n`;
  for await (const batch of eachRow(spec.rows)) {
    yield batch.map((row) => `${spec.columns.map((c) => csvCell(row[c.key], c.format)).join(',')}\r\n`).join('');
  }
}

/**
 * The same sheet as RFC 4180 CSV: a header row, CRLF line ends and (by default) a BOM so Excel reads UTF-8. Fields
 * go through csvField, which keeps spreadsheet apps from running text as a formula. Written a batch at a time.
 */
export function writeCsv(spec: SheetSpec, { bom = true }: { bom?: boolean } = {}): Readable {
  return Readable.from(csvLines(spec, bom));
}
