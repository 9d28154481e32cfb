import type { Language } from '@portal/core';
import { CSV_MIME, type Download, type SheetFormat, type SheetRow, type SheetService, type SqlClient, XLSX_MIME } from '@portal/server';
import type { RowColumn, SampleRow } from '../contract';
import { type DbRow, orderClause, type RowQuery, SELECT_ROW, sortOf, toRow, whereClause } from './query';

/** Rows per database round trip while exporting. */
export const EXPORT_BATCH = 2000;

/**
 * Every row matching the query in sort order, a batch at a time. Keyset paging on (sort column, id): each batch starts
 * after the last row of the previous one, so a late batch costs the same as the first (no OFFSET scan).
 */
export async function* matchingRows(sql: SqlClient, q: RowQuery, batch = EXPORT_BATCH): AsyncGenerator<SampleRow[]> {
  const { column, dir } = sortOf(q);
  const after = dir === 'ASC' ? '>' : '<';
  let last: { key: string; id: number } | null = null;
  for (;;) {
    const params: unknown[] = [];
    const conditions = [whereClause(q, params).replace(/^WHERE /, '')].filter(Boolean);
    if (last) {
      if (column.sql === 'id') {
        params.push(last.id);
        conditions.push(`id ${after} $${params.length}`);
      } else {
        params.push(last.key, last.id);
        conditions.push(`(${column.sql}, id) ${after} ($${params.length - 1}::${column.type}, $${params.length}::integer)`);
      }
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows = await sql.query<DbRow & { SortKey: string }>(
      `SELECT ${SELECT_ROW}, ${column.sql}::text AS "SortKey" FROM kit_gallery_rows ${where} ${orderClause(q)} LIMIT ${batch}`,
      params,
    );
    if (rows.length > 0) yield rows.map(({ SortKey: _k, ...r }) => toRow(r));
    const tail = rows.at(-1);
    if (!tail || rows.length < batch) return;
    last = { key: tail.SortKey, id: tail.Id };
  }
}

/** How each column is written: the amount as money (cents), the date as a day, the id as a number, the rest as text. */
const FORMATS: Record<RowColumn, SheetFormat> = {
  Id: 'number',
  Name: 'text',
  City: 'text',
  State: 'text',
  Amount: 'money',
  Date: 'date',
  Status: 'text',
  Category: 'text',
};

async function* sheetRows(rows: AsyncIterable<SampleRow[]>): AsyncGenerator<SheetRow[]> {
  // The sample rows carry dollars for the grid; the sheet service takes integer cents.
  for await (const batch of rows) yield batch.map((row) => ({ ...row, Amount: Math.round(row.Amount * 100) }));
}

/** The grid's export as a download: the chosen columns, in the grid's order, written as the rows arrive. */
export function rowsExport(
  sheets: SheetService,
  format: 'csv' | 'xlsx',
  columns: readonly { id: RowColumn; header: string }[],
  rows: AsyncIterable<SampleRow[]>,
  today = new Date(),
  /** The reader's: the tab name is the server's word (the headers come from the grid, already in it). */
  language: Language = 'en',
): Download {
  const spec = {
    sheetName: 'Transactions',
    language,
    columns: columns.map((c) => ({ header: c.header, key: c.id, format: FORMATS[c.id] })),
    rows: sheetRows(rows),
  };
  const fileName = `transactions-${today.toISOString().slice(0, 10)}.${format}`;
  return format === 'csv' ? { fileName, contentType: CSV_MIME, body: sheets.csv(spec) } : { fileName, contentType: XLSX_MIME, body: sheets.xlsx(spec) };
}
