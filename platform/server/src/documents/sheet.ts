import type { CellValue, Language, Message } from '@portal/core';

/**
 * How a column's values are written. money: integer cents, shown with 2 decimals; date: a Date or 'YYYY-MM-DD',
 * shown as a day; text: always text (ids with leading zeros stay intact); number: a plain number. Without a format a
 * value is written as what it is (numbers stay numbers).
 */
export type SheetFormat = 'money' | 'date' | 'text' | 'number';

export interface SheetColumn {
  /** Written in the sheet's language. */
  header: Message;
  /** The row field this column shows. */
  key: string;
  /** In characters, as spreadsheet apps measure it. */
  width?: number;
  format?: SheetFormat;
}

export type SheetRow = Readonly<Record<string, CellValue>>;

export interface SheetSpec {
  /** Tab name, in the sheet's language; characters Excel refuses are replaced and it is cut to 31. */
  sheetName: Message;
  /** The language of the tab name and the column headers ('en' unless given): the reader's, `ctx.language`. */
  language?: Language;
  columns: readonly SheetColumn[];
  /** Rows one at a time or in batches (as a keyset query yields them); read once, as they are written. */
  rows: AsyncIterable<SheetRow | readonly SheetRow[]> | Iterable<SheetRow | readonly SheetRow[]>;
}

/** Each row of the spec, whether it came alone or in a batch. */
export async function* eachRow(rows: SheetSpec['rows']): AsyncGenerator<readonly SheetRow[]> {
  for await (const item of rows) yield Array.isArray(item) ? (item as readonly SheetRow[]) : [item as SheetRow];
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A 'YYYY-MM-DD' string or a Date as a Date at midnight UTC of that day; null for anything else. */
export function dayOf(value: CellValue): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== 'string') return null;
  const m = ISO_DAY.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  // 2024-02-31 would roll over into March: not a day.
  return date.toISOString().startsWith(value) ? date : null;
}

/** Tab name Excel accepts: no : \ / ? * [ ], at most 31 characters, not empty. */
export function safeSheetName(name: string): string {
  const clean = name
    .replace(/[:\\/?*[\]]/g, ' ')
    .trim()
    .slice(0, 31)
    .trim();
  return clean || 'Sheet1';
}

/** The spec with its tab name and column headers as text in its language (`tr`); the writers take it so. */
export function localiseSheet(
  spec: SheetSpec,
  tr: (message: Message) => string,
): SheetSpec & { sheetName: string; columns: readonly (SheetColumn & { header: string })[] } {
  return { ...spec, sheetName: tr(spec.sheetName), columns: spec.columns.map((c) => ({ ...c, header: tr(c.header) })) };
}
