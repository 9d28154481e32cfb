import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportRequestBody, KitGalleryApi, SAMPLE_ROW_COUNT } from '../contract';
import { matchingRows } from './export';

let server: StartedServer;
let staff: Session;

beforeAll(async () => {
  server = await startTestServer();
  await makeUser(server, { userName: 'kg-exporter', roles: ['SuperUser'], brand: 'staff' });
  staff = await signIn(server, 'kg-exporter');
});
afterAll(() => server?.close());

const COLUMNS: ExportRequestBody['columns'] = [
  { id: 'Id', header: 'Id' },
  { id: 'Name', header: 'Payee, "name"' },
  { id: 'Amount', header: 'Amount' },
  { id: 'Date', header: 'Date' },
  { id: 'Status', header: 'Status' },
];

const exportRows = (body: ExportRequestBody) =>
  server.app.inject({ method: 'POST', url: KitGalleryApi.exportRows.path, headers: authHeaders(staff), payload: body });

describe('POST /api/kit-gallery/rows/export', () => {
  it('streams every filtered row as CSV (no 1,000-row cap) in the grid order, with x-filename', async () => {
    const sql = server.database.sql;
    const expected = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM kit_gallery_rows WHERE status IN ('Declined')`))[0]?.n ?? 0;
    expect(expected).toBeGreaterThan(1000);
    const res = await exportRows({ format: 'csv', sortColumn: 'Amount', sortOrder: 'desc', filters: { Status: 'Declined' }, search: '', columns: COLUMNS });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['x-filename']).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = res.body;
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('Id,"Payee, ""name""",Amount,Date,Status');
    const data = lines.slice(1, -1);
    expect(data).toHaveLength(expected);
    const amounts = data.map((l) => Number(l.split(',').at(-3)));
    for (let i = 1; i < amounts.length; i++) expect(amounts[i - 1]).toBeGreaterThanOrEqual(amounts[i] ?? 0);
    expect(data.every((l) => l.endsWith(',Declined'))).toBe(true);
    expect(new Set(data.map((l) => l.split(',')[0])).size).toBe(expected);
  });

  it('exports the whole table unfiltered, crossing several keyset batches', async () => {
    const res = await exportRows({ format: 'csv', sortColumn: 'Name', sortOrder: 'asc', filters: {}, search: '', columns: [{ id: 'Id', header: 'Id' }] });
    const ids = res.body.slice(1).trim().split('\r\n').slice(1);
    expect(ids).toHaveLength(SAMPLE_ROW_COUNT);
    expect(new Set(ids).size).toBe(SAMPLE_ROW_COUNT);
  });

  it('keyset batches give the same order as one query, for every sort', async () => {
    const sql = server.database.sql;
    for (const sortColumn of ['Date', 'State', 'Id'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const batched: number[] = [];
        for await (const batch of matchingRows(sql, { sortColumn, sortOrder, search: 'a', filters: {} }, 700)) batched.push(...batch.map((r) => r.Id));
        const one: number[] = [];
        for await (const batch of matchingRows(sql, { sortColumn, sortOrder, search: 'a', filters: {} }, 100_000)) one.push(...batch.map((r) => r.Id));
        expect(batched.length).toBeGreaterThan(1400);
        expect(batched).toEqual(one);
      }
    }
  });

  it('streams an XLSX workbook that holds every filtered row, amounts as numbers', async () => {
    const res = await exportRows({ format: 'xlsx', sortColumn: 'Id', sortOrder: 'asc', filters: { Category: 'medical' }, search: '', columns: COLUMNS });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['x-filename']).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(res.rawPayload).buffer);
    const sheet = workbook.getWorksheet('Transactions');
    const expected = (await server.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM kit_gallery_rows WHERE category = 'Medical'`))[0]?.n ?? 0;
    expect(expected).toBeGreaterThan(1000);
    expect(sheet?.rowCount).toBe(expected + 1);
    expect(sheet?.getCell('B1').value).toBe('Payee, "name"');
    // Numbers stay numeric cells.
    expect(typeof sheet?.getCell('C2').value).toBe('number');
    const first = (
      await server.database.sql.query<{ status: string }>(`SELECT status FROM kit_gallery_rows WHERE category = 'Medical' ORDER BY id LIMIT 1`)
    )[0];
    expect(sheet?.getCell('E2').value).toBe(first?.status);
  });

  it('refuses an Amount filter past the integer cents column with 400, as the grid does', async () => {
    const res = await exportRows({ format: 'csv', filters: { Amount: '99999999999' }, search: '', columns: COLUMNS });
    expect(res.statusCode).toBe(400);
    expect(res.json().MsgText).toMatch(/^body\.filters\.Amount: /);
  });

  it('refuses unknown columns and formats', async () => {
    const bad = await server.app.inject({
      method: 'POST',
      url: KitGalleryApi.exportRows.path,
      headers: authHeaders(staff),
      payload: { format: 'pdf', columns: [{ id: 'password_hash', header: 'x' }] },
    });
    expect(bad.statusCode).toBe(400);
  });
});
