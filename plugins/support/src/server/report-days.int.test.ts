import type { StartedServer } from '@portal/app-server/server';
import { dayIn } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupportApi } from '../contract';

/**
 * Support's exports write each moment's day as the reader's page shows it: the day in the zone of the staff user's
 * browser (`x-time-zone`, ctx.timeZone), not the server's UTC day. The moments here are explicit: 2019-07-01 03:00 UTC
 * is 2019-06-30 at 8 pm in Los Angeles and 2019-07-01 at noon in Tokyo.
 */
const MOMENT = '2019-07-01T03:00:00.000Z';
const LA = 'America/Los_Angeles';
const TOKYO = 'Asia/Tokyo';
let server: StartedServer & { dropDatabase(): Promise<void> };
let staff: Session;
let memberId: number;
let chargeId: number;

const post = async (path: string, zone: string, body: object = {}) => {
  const res = await server.app.inject({ method: 'POST', url: path, headers: authHeaders(staff, 'staff', { 'x-time-zone': zone }), payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
async function rows(raw: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(new Uint8Array(raw).buffer);
  const out: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
  return out;
}
/** A date cell's day: exceljs reads a day cell back as that day's midnight UTC. */
const dayCell = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : v);
const fileName = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers['x-filename']));

beforeAll(async () => {
  server = await startTestServer({}, { sites: ['card', 'staff'] });
  await makeUser(server, { userName: 'days-staff', roles: ['CareSupport'], brand: 'staff' });
  staff = await signIn(server, 'days-staff');
  memberId = (await makeUser(server, { userName: 'days-member', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  const sql = server.database.sql;
  await sql.query(`UPDATE members SET first_name = 'Dana', last_name = 'Dayton', created_at = $2, termination_date = $2 WHERE member_id = $1`, [
    memberId,
    MOMENT,
  ]);
  await sql.query(`UPDATE users SET created_at = $2 WHERE member_id = $1`, [memberId, MOMENT]);
  chargeId = (
    await sql.query<{ id: number }>(
      `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message, created_at)
       VALUES ($1, 'charge', 'Charged', 1850, 'Evening copay', 'Charged', $2) RETURNING id`,
      [memberId, MOMENT],
    )
  )[0]?.id as number;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe("support's exports write days in the reader's zone", () => {
  it("the transaction spreadsheet's Date is the charge's day where the staff user is", async () => {
    const body = { Query: { Status: 'All' }, TransactionIDs: [chargeId] };
    const la = await rows((await post(SupportApi.transactionExcel.path, LA, body)).rawPayload);
    expect(la[0]?.[1]).toBe('Date');
    expect(la.slice(1).map((r) => [r[0], dayCell(r[1])])).toEqual([[chargeId, '2019-06-30']]);
    const tokyo = await rows((await post(SupportApi.transactionExcel.path, TOKYO, body)).rawPayload);
    expect(tokyo.slice(1).map((r) => [r[0], dayCell(r[1])])).toEqual([[chargeId, '2019-07-01']]);
  });

  it("the registration report's Created and Terminated days, in the spreadsheet and the PDF", async () => {
    const sheet = async (zone: string) => (await rows((await post('/api/support/registrationReport/excel', zone)).rawPayload)).find((r) => r[0] === memberId);
    expect((await sheet(LA))?.slice(8).map(dayCell)).toEqual(['2019-06-30', '2019-06-30']);
    expect((await sheet(TOKYO))?.slice(8).map(dayCell)).toEqual(['2019-07-01', '2019-07-01']);
    const pdf = async (zone: string) =>
      (await extractText(await getDocumentProxy(new Uint8Array((await post('/api/support/registrationReport/pdf', zone)).rawPayload)), { mergePages: true }))
        .text;
    const la = await pdf(LA);
    expect(la).toContain('2019-06-30');
    expect(la).not.toContain('2019-07-01');
    const tokyo = await pdf(TOKYO);
    expect(tokyo).toContain('2019-07-01');
    expect(tokyo).not.toContain('2019-06-30');
  });

  it("the user report's Created day", async () => {
    const created = async (zone: string) =>
      dayCell((await rows((await post('/api/support/userReport/excel', zone)).rawPayload)).find((r) => r[0] === 'days-member')?.[8]);
    expect(await created(LA)).toBe('2019-06-30');
    expect(await created(TOKYO)).toBe('2019-07-01');
  });

  it("names the file, and dates the PDF's Generated line, with today in the reader's zone", async () => {
    // Kiritimati (UTC+14) and Pago Pago (UTC-11) are never on the same day, and at any hour one of them is not on UTC's.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const before = dayIn(zone);
      const sheet = fileName(await post(SupportApi.transactionExcel.path, zone, { Query: { Status: 'All' }, TransactionIDs: [chargeId] }));
      const report = await post('/api/support/userReport/pdf', zone);
      const after = dayIn(zone);
      expect([`support-transactions-${before}.xlsx`, `support-transactions-${after}.xlsx`]).toContain(sheet);
      expect([`user-report-${before}.pdf`, `user-report-${after}.pdf`]).toContain(fileName(report));
      const text = (await extractText(await getDocumentProxy(new Uint8Array(report.rawPayload)), { mergePages: true })).text;
      expect(text.includes(`Generated ${before}`) || text.includes(`Generated ${after}`), text.slice(0, 200)).toBe(true);
    }
  });
});
