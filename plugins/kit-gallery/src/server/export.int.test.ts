import { inflateRawSync } from 'node:zlib';
import type { StartedServer } from '@portal/app-server/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '../../../../tests/support/server';
import { type ExportRequestBody, KitGalleryApi, SAMPLE_ROW_COUNT } from '../contract';
import { matchingRows } from './index';

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
  server.app.inject({ method: 'POST', url: KitGalleryApi.exportRows, headers: authHeaders(staff), payload: body });

/** Minimal zip reader (central directory; stored or deflated entries). */
function unzip(bytes: Buffer): Map<string, string> {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(bytes.readUInt32LE(local)).toBe(0x04034b50);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(raw) : raw).toString('utf8'));
    at += 46 + skip;
  }
  return files;
}

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

  it('streams an XLSX workbook that unzips and holds every filtered row', async () => {
    const res = await exportRows({ format: 'xlsx', sortColumn: 'Id', sortOrder: 'asc', filters: { Category: 'medical' }, search: '', columns: COLUMNS });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['x-filename']).toMatch(/\.xlsx$/);
    const files = unzip(res.rawPayload);
    expect([...files.keys()]).toEqual(expect.arrayContaining(['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']));
    const sheet = files.get('xl/worksheets/sheet1.xml') ?? '';
    const expected = (await server.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM kit_gallery_rows WHERE category = 'Medical'`))[0]?.n ?? 0;
    expect(expected).toBeGreaterThan(1000);
    expect(sheet.match(/<row /g)).toHaveLength(expected + 1);
    expect(sheet).toContain('Payee, &quot;name&quot;');
    // Numbers stay numeric cells.
    expect(sheet).toMatch(/<c r="C2"><v>[\d.]+<\/v><\/c>/);
  });

  it('refuses unknown columns and formats', async () => {
    const bad = await server.app.inject({
      method: 'POST',
      url: KitGalleryApi.exportRows,
      headers: authHeaders(staff),
      payload: { format: 'pdf', columns: [{ id: 'password_hash', header: 'x' }] },
    });
    expect(bad.statusCode).toBe(400);
  });
});
