import { route, sendDownload } from '@portal/server';
import { KIT_GALLERY_ACCESS } from '../../access';
import { KitGalleryApi } from '../../contract';
import { matchingRows, rowsExport } from '../export';
import { type DbRow, orderClause, type RowQuery, SELECT_ROW, toRow, whereClause } from '../query';

export const rowRoutes = [
  route(KitGalleryApi.rows, {
    access: KIT_GALLERY_ACCESS,
    handler: async ({ database, body }) => {
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
  route(KitGalleryApi.exportRows, {
    access: KIT_GALLERY_ACCESS,
    handler: async ({ database, body, reply, audit, services, language }) => {
      const q: RowQuery = { sortColumn: body.sortColumn, sortOrder: body.sortOrder, search: body.search, filters: body.filters };
      await audit({ action: 'kit-gallery.export', entity: 'kit_gallery_rows', detail: { format: body.format, filters: body.filters, search: body.search } });
      return sendDownload(reply, rowsExport(services.sheets, body.format, body.columns, matchingRows(database.sql, q), new Date(), language));
    },
  }),
];
