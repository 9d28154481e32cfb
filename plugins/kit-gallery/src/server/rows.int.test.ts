import type { StartedServer } from '@portal/app-server/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitGalleryApi, type RowsRequest, SAMPLE_ROW_COUNT, type SampleRowsResponse } from '../contract';

let server: StartedServer;
let staff: Session;
let member: Session;

beforeAll(async () => {
  server = await startTestServer();
  await makeUser(server, { userName: 'kg-support', roles: ['CareSupport'], brand: 'staff' });
  await makeUser(server, { userName: 'kg-member', roles: ['CareGuard'], brand: 'card', member: true });
  staff = await signIn(server, 'kg-support');
  member = await signIn(server, 'kg-member');
});
afterAll(() => server?.close());

async function rows(body: RowsRequest | Record<string, unknown>, session = staff, brand = 'staff') {
  const res = await server.app.inject({ method: 'POST', url: KitGalleryApi.rows.path, headers: authHeaders(session, brand), payload: body });
  return { status: res.statusCode, json: res.json() as { Data: SampleRowsResponse; MsgText: string | null; HasError: boolean } };
}

/** A filled-in gallery form the page schema accepts (each test sets its units and files). */
const GALLERY_FORM = {
  FullName: 'Pat Doe',
  Email: 'pat@example.com',
  Password: 'Secret12',
  ConfirmPassword: 'Secret12',
  Phone: '(555) 123-4567',
  Ssn: '123-45-6789',
  Dob: '01/02/1980',
  ServiceDate: '03/04/2024',
  AppointmentDate: '2026-05-06',
  Amount: '12.50',
  TransactionType: 1,
  State: 'TX',
  Agree: true,
  ContactPreference: 'Email',
};

describe('POST /api/kit-gallery/rows', () => {
  it('pages the deterministic sample rows', async () => {
    const first = await rows({ PageIndex: 0, PageSize: 20 });
    expect(first.status).toBe(200);
    expect(first.json.Data.ItemCount).toBe(SAMPLE_ROW_COUNT);
    expect(first.json.Data.Items).toHaveLength(20);
    expect(first.json.Data.Items.map((r) => r.Id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const row = first.json.Data.Items[0];
    expect(row).toMatchObject({ Id: 1, State: expect.stringMatching(/^[A-Z]{2}$/), Date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(Number.isInteger(Math.round((row?.Amount ?? 0) * 100))).toBe(true);

    const third = await rows({ PageIndex: 2, PageSize: 50 });
    expect(third.json.Data.Items.map((r) => r.Id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 101));
    const last = await rows({ PageIndex: SAMPLE_ROW_COUNT / 50 - 1, PageSize: 50 });
    expect(last.json.Data.Items.at(-1)?.Id).toBe(SAMPLE_ROW_COUNT);
    const past = await rows({ PageIndex: SAMPLE_ROW_COUNT, PageSize: 50 });
    expect(past.json.Data).toEqual({ Items: [], ItemCount: SAMPLE_ROW_COUNT });
  });

  it('sorts by any whitelisted column both ways, with the id breaking ties', async () => {
    for (const column of ['Name', 'Amount', 'Date', 'Status', 'City'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const { json } = await rows({ PageIndex: 3, PageSize: 50, SortColumn: column, SortOrder: order });
        const items = json.Data.Items;
        expect(items).toHaveLength(50);
        for (let i = 1; i < items.length; i++) {
          const a = items[i - 1];
          const b = items[i];
          if (!a || !b) throw new Error('missing row');
          const cmp = a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : Math.sign(a.Id - b.Id);
          expect(order === 'asc' ? cmp : -cmp, `${column} ${order} at ${i}`).toBeLessThan(0);
        }
      }
    }
    const top = await rows({ PageSize: 1, SortColumn: 'Amount', SortOrder: 'desc' });
    const max = await server.database.sql.query<{ m: number }>('SELECT max(amount_cents)::int AS m FROM kit_gallery_rows');
    expect(top.json.Data.Items[0]?.Amount).toBe((max[0]?.m ?? 0) / 100);
  });

  it('filters per column and searches across columns, counting all matches', async () => {
    const sql = server.database.sql;
    const count = async (where: string, params: unknown[] = []) =>
      (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM kit_gallery_rows WHERE ${where}`, params))[0]?.n;

    const declined = await rows({ PageSize: 50, Filters: { Status: 'declined' } });
    expect(declined.json.Data.ItemCount).toBe(await count(`status = 'Declined'`));
    expect(declined.json.Data.ItemCount).toBeGreaterThan(1000);
    expect(declined.json.Data.Items.every((r) => r.Status === 'Declined')).toBe(true);

    const combined = await rows({ PageSize: 50, Filters: { State: 'tx', Category: 'Pharmacy', Amount: '1000' }, SortColumn: 'Amount' });
    expect(combined.json.Data.ItemCount).toBe(await count(`state = 'TX' AND category = 'Pharmacy' AND amount_cents >= 100000`));
    expect(combined.json.Data.Items.every((r) => r.State === 'TX' && r.Category === 'Pharmacy' && r.Amount >= 1000)).toBe(true);

    const month = await rows({ PageSize: 10, Filters: { Date: '2024-02' } });
    expect(month.json.Data.ItemCount).toBe(await count(`txn_date >= '2024-02-01' AND txn_date < '2024-03-01'`));
    expect(month.json.Data.Items.every((r) => r.Date.startsWith('2024-02'))).toBe(true);

    const search = await rows({ PageSize: 10, Search: 'spring' });
    expect(search.json.Data.ItemCount).toBe(await count(`name ILIKE '%spring%' OR city ILIKE '%spring%'`));
    expect(search.json.Data.Items.every((r) => r.City.toLowerCase().includes('spring'))).toBe(true);

    const name = await rows({ PageSize: 10, Filters: { Name: 'garc' } });
    expect(name.json.Data.ItemCount).toBe(await count(`name ILIKE '%garc%'`));

    // Wildcards typed by the user are literal; impossible values match nothing rather than failing.
    expect((await rows({ Filters: { Name: '%' } })).json.Data.ItemCount).toBe(0);
    expect((await rows({ Filters: { Date: '2024-02-31' } })).json.Data.ItemCount).toBe(0);
    expect((await rows({ Filters: { Status: 'Unknown' } })).json.Data.ItemCount).toBe(0);
    expect((await rows({ Filters: { Id: '42' } })).json.Data.Items.map((r) => r.Id)).toEqual([42]);
  });

  it('answers 400 naming the field for bad input', async () => {
    const cases: Record<string, unknown>[] = [
      { SortColumn: 'name; DROP TABLE kit_gallery_rows' },
      { SortOrder: 'sideways' },
      { PageSize: 0 },
      { PageSize: 5000 },
      { PageIndex: -1 },
      { PageIndex: 1.5 },
      { Filters: { Password: 'x' } },
      { Search: 'x'.repeat(101) },
    ];
    for (const body of cases) {
      const res = await rows(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.HasError).toBe(true);
    }
    expect((await rows({ SortColumn: 'Bogus' })).json.MsgText).toMatch(/SortColumn/);
  });

  it('answers 400 to an Amount filter past the integer cents column, not a database error; the largest one filters', async () => {
    for (const Amount of ['99999999999', '-99999999999', '$21,474,836.48', `1${'0'.repeat(20)}`]) {
      const res = await rows({ Filters: { Amount } });
      expect(res.status, Amount).toBe(400);
      expect(res.json.MsgText, Amount).toMatch(/^body\.Filters\.Amount: /);
    }
    expect((await rows({ Filters: { Amount: '21474836.47' } })).json.Data.ItemCount).toBe(0);
    expect((await rows({ Filters: { Amount: '-21,474,836.47' } })).json.Data.ItemCount).toBe(SAMPLE_ROW_COUNT);
    // Text that is no amount still matches nothing, as before.
    expect((await rows({ Filters: { Amount: 'lots' } })).json.Data.ItemCount).toBe(0);
  });

  it('is for support staff on the staff site only', async () => {
    expect((await rows({}, member, 'card')).status).toBe(404);
    expect((await rows({}, member, 'staff')).status).toBe(403);
    const anonymous = await server.app.inject({ method: 'POST', url: KitGalleryApi.rows.path, headers: { host: 'staff.localhost' }, payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('validates the gallery form with the page schema', async () => {
    const good = { ...GALLERY_FORM, Units: 250, Files: [{ name: 'bill.pdf', size: 1234 }] };
    const ok = await server.app.inject({ method: 'POST', url: KitGalleryApi.form.path, headers: authHeaders(staff), payload: good });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ Data: { FullName: 'Pat Doe', Files: 1 }, MsgText: 'The form was received.', HasError: false });

    const bad = await server.app.inject({
      method: 'POST',
      url: KitGalleryApi.form.path,
      headers: authHeaders(staff),
      payload: { ...good, ConfirmPassword: 'Other123', Dob: '01/01/1899', Password: 'short' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().MsgText).toMatch(/ConfirmPassword|Dob|Password/);
  });
});

describe("messages in the user's language", () => {
  it('confirms the gallery form in Spanish when the request is in Spanish', async () => {
    const form = { ...GALLERY_FORM, Units: 5, Files: [] };
    const res = await server.app.inject({
      method: 'POST',
      url: KitGalleryApi.form.path,
      headers: authHeaders(staff, undefined, { cookie: 'cq.lang=es' }),
      payload: form,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ Data: { FullName: 'Pat Doe', Files: 0 }, MsgText: 'Se recibió el formulario.', HasError: false });
  });
});
