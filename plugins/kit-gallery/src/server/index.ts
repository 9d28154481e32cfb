import { Readable } from 'node:stream';
import { type CellValue, csvField, XLSX_MIME, xlsxParts } from '@portal/core';
import { defineServerPlugin, route, SENT, type SqlClient, withMessage } from '@portal/server';
import {
  exportCell,
  exportRequestSchema,
  type GalleryFormResponse,
  galleryFormSchema,
  KIT_GALLERY_ACCESS,
  KitGalleryApi,
  type RowColumn,
  rowsRequestSchema,
  type SampleRow,
  type SampleRowsResponse,
} from '../contract';
import { kitGalleryMigrations } from './migrations';
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

const encoder = new TextEncoder();

async function* csvChunks(header: readonly string[], columns: readonly RowColumn[], rows: AsyncIterable<SampleRow[]>): AsyncGenerator<Uint8Array> {
  // Same shape as toCsv: BOM, header, CRLF line ends; written a batch at a time.
  yield encoder.encode(`\uFEFF${header.map(csvField).join(',')}\r\n`);
  for await (const batch of rows) {
    yield encoder.encode(batch.map((row) => `${columns.map((c) => csvField(exportCell(row, c))).join(',')}\r\n`).join(''));
  }
}

async function* xlsxChunks(header: readonly string[], columns: readonly RowColumn[], rows: AsyncIterable<SampleRow[]>): AsyncGenerator<Uint8Array> {
  // The writer makes a stored zip, which needs each entry's CRC before its data, so the cells are gathered first
  // (compact arrays); the file itself still goes out in chunks.
  const cells: CellValue[][] = [];
  for await (const batch of rows) for (const row of batch) cells.push(columns.map((c) => exportCell(row, c)));
  yield* xlsxParts({ name: 'Transactions', header, rows: cells });
}

const stamp = () => new Date().toISOString().slice(0, 10);

export default defineServerPlugin({
  id: 'kit-gallery',
  migrations: kitGalleryMigrations,
  routes: [
    route({
      method: 'POST',
      url: KitGalleryApi.rows,
      access: KIT_GALLERY_ACCESS,
      schemas: { body: rowsRequestSchema },
      handler: async ({ database, body }): Promise<SampleRowsResponse> => {
        const q: RowQuery = { sortColumn: body.SortColumn, sortOrder: body.SortOrder, search: body.Search, filters: body.Filters };
        const params: unknown[] = [];
        const where = whereClause(q, params);
        const [count, rows] = await Promise.all([
          database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM kit_gallery_rows ${where}`, params),
          database.sql.query<DbRow>(
            `SELECT ${SELECT_ROW} FROM kit_gallery_rows ${where} ${orderClause(q)} LIMIT ${body.PageSize} OFFSET ${body.PageIndex * body.PageSize}`,
            params,
          ),
        ]);
        return { Items: rows.map(toRow), ItemCount: count[0]?.n ?? 0 };
      },
    }),
    route({
      method: 'POST',
      url: KitGalleryApi.exportRows,
      access: KIT_GALLERY_ACCESS,
      schemas: { body: exportRequestSchema },
      handler: async ({ database, body, reply, audit }) => {
        const q: RowQuery = { sortColumn: body.sortColumn, sortOrder: body.sortOrder, search: body.search, filters: body.filters };
        const columns = body.columns.map((c) => c.id);
        const header = body.columns.map((c) => c.header);
        const fileName = `transactions-${stamp()}.${body.format}`;
        await audit({ action: 'kit-gallery.export', entity: 'kit_gallery_rows', detail: { format: body.format, filters: body.filters, search: body.search } });
        const rows = matchingRows(database.sql, q);
        const chunks = body.format === 'csv' ? csvChunks(header, columns, rows) : xlsxChunks(header, columns, rows);
        reply
          .header('content-type', body.format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_MIME)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('x-filename', fileName)
          .header('cache-control', 'no-store');
        reply.send(Readable.from(chunks));
        return SENT;
      },
    }),
    route({
      method: 'POST',
      url: KitGalleryApi.form,
      access: KIT_GALLERY_ACCESS,
      schemas: { body: galleryFormSchema },
      handler: async ({ body }) => {
        const data: GalleryFormResponse = { FullName: body.FullName, Fields: Object.keys(body).length, Files: body.Files.length };
        return withMessage(data, 'The form was received.');
      },
    }),
  ],
});
