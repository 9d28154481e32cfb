import { randomUUID } from 'node:crypto';
import { dayIn, formatIsoDayText, Roles } from '@portal/core';
import type { SqlClient } from '@portal/server';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, LedgerApi } from '../contract';

/**
 * A terminated membership's ledger: no row dated after the day the membership ended (the business's calendar day of
 * the termination) is added or saved, whoever asks (the member, staff acting for them): 409 with the day in the
 * reader's language and Data `Terminated`. Rows dated on or before that day may still be added and corrected, any row
 * deleted. The check is in the write's transaction: a termination committed just before it began is seen.
 */
const BUSINESS_ZONE = 'America/Chicago';
let server: Awaited<ReturnType<typeof startTestServer>>;
let member: Session;
let memberId: number;
let superUser: Session;
let support: Session;

/** A month back, a moment that is still the day before in Chicago (03:00 UTC is 21:00 or 22:00 there). */
const utcDay = addDays(dayIn(BUSINESS_ZONE), -30);
const terminatedAt = `${utcDay}T03:00:00Z`;
/** The termination's day in the business's zone: the day before its UTC day. */
const ended = addDays(utcDay, -1);
const refusedEn = `The membership ended on ${formatIsoDayText(ended, 'medium', 'en-US')}: a transaction dated after that day cannot be added or saved.`;
const refusedEs = `La membresía terminó el ${formatIsoDayText(ended, 'medium', 'es-US')}: no se puede agregar ni guardar una transacción con fecha posterior a ese día.`;

type Json = Record<string, unknown>;
type Answer = { status: number; body: { MsgText: string | null; Data: Json } };
async function call(session: Session, path: string, body: Json, extra: Record<string, string> = {}, brand = 'card'): Promise<Answer> {
  const res = await server.app.inject({ method: 'POST', url: path, headers: authHeaders(session, brand, extra), payload: body });
  return { status: res.statusCode, body: res.json() as Answer['body'] };
}
/** The member themself, or staff acting for the member (their impersonation header, the staff site). */
const as = {
  member: (path: string, body: Json, extra: Record<string, string> = {}) => call(member, path, body, extra),
  superUser: (path: string, body: Json) => call(superUser, path, body, { 'x-member-id': String(memberId) }, 'staff'),
  support: (path: string, body: Json) => call(support, path, body, { 'x-member-id': String(memberId) }, 'staff'),
};
const entry = (DateCreated: string, over: Json = {}) => ({
  IdempotencyKey: `ledger-ended-${randomUUID()}`,
  DateCreated,
  Code: '99213',
  Company: 'Riverside Orthopedics',
  Description: 'Office visit',
  TransactionTypeID: 1,
  Amount: 40,
  ...over,
});
const rows = async (id: number) =>
  (await server.database.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1', [id]))[0]?.n ?? 0;
const terminate = (id: number) => server.database.sql.query('UPDATE members SET termination_date = $2::timestamptz WHERE member_id = $1', [id, terminatedAt]);

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: BUSINESS_ZONE });
  memberId = (await makeUser(server, { userName: 'ended-ledger', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  await makeUser(server, { userName: 'ended-ledger-su', roles: [Roles.SuperUser], brand: 'staff' });
  await makeUser(server, { userName: 'ended-ledger-cs', roles: [Roles.CareSupport], brand: 'staff' });
  member = await signIn(server, 'ended-ledger');
  superUser = await signIn(server, 'ended-ledger-su');
  support = await signIn(server, 'ended-ledger-cs');
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 100000)', [memberId]);
  await terminate(memberId);
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe("a terminated membership's ledger", () => {
  it('refuses a new row dated after the termination day (409, Data Terminated) for the member and for staff acting for them', async () => {
    const before = await rows(memberId);
    // The termination's UTC day is already after its day in the business's zone: refused too.
    for (const [who, day] of [
      ['member', utcDay],
      ['superUser', addDays(ended, 5)],
      ['support', dayIn(BUSINESS_ZONE)],
    ] as const) {
      const r = await as[who](LedgerApi.create.path, entry(day));
      expect(r.status, `${who}: ${JSON.stringify(r.body)}`).toBe(409);
      expect(r.body.MsgText).toBe(refusedEn);
      expect(r.body.Data).toEqual({ Terminated: true });
    }
    // An empty date stands for the business's today: after the end too.
    expect((await as.superUser(LedgerApi.create.path, entry(''))).status).toBe(409);
    const es = await as.member(LedgerApi.create.path, entry(utcDay), { 'accept-language': 'es' });
    expect(es.status).toBe(409);
    expect(es.body.MsgText).toBe(refusedEs);
    expect(await rows(memberId)).toBe(before);
  });

  it('adds and corrects rows dated on or before the termination day, and deletes any row', async () => {
    const before = await rows(memberId);
    const onDay = await as.superUser(LedgerApi.create.path, entry(ended));
    expect(onDay.status, JSON.stringify(onDay.body)).toBe(200);
    const earlier = await as.member(LedgerApi.create.path, entry(addDays(ended, -20), { TransactionTypeID: 2 }));
    expect(earlier.status, JSON.stringify(earlier.body)).toBe(200);
    expect(await rows(memberId)).toBe(before + 2);

    // A correction of the amount, and a date moved within the membership, are saved.
    const row = onDay.body.Data as { TransactionID: number; Version: number };
    const edited = await as.support(LedgerApi.update.path, {
      ...entry(addDays(ended, -1), { Amount: 45.5 }),
      TransactionID: row.TransactionID,
      Version: row.Version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.Data).toMatchObject({ DateCreated: addDays(ended, -1), Amount: 45.5 });
    // Moved after the end: refused, the row as it was.
    const moved = edited.body.Data as { TransactionID: number; Version: number };
    const late = await as.superUser(LedgerApi.update.path, { ...entry(addDays(ended, 1)), TransactionID: moved.TransactionID, Version: moved.Version });
    expect(late.status).toBe(409);
    expect(late.body.MsgText).toBe(refusedEn);
    expect(late.body.Data).toEqual({ Terminated: true });
    const stored = await server.database.sql.query<{ day: string; version: number }>(
      `SELECT to_char(date_created, 'YYYY-MM-DD') AS day, version FROM ledger_transactions WHERE transaction_id = $1`,
      [moved.TransactionID],
    );
    expect(stored[0]).toEqual({ day: addDays(ended, -1), version: moved.Version });
    // Deleted: a delete adds nothing.
    const gone = await as.superUser(LedgerApi.delete.path, { TransactionID: moved.TransactionID, Version: moved.Version });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
  });

  it('a row dated after the end (entered before the termination) is saved only moved back to the membership; deleted at once', async () => {
    const made = await server.database.sql.query<{ transaction_id: number }>(
      `INSERT INTO ledger_transactions (member_id, source, date_created, code, company, description, transaction_type_id, amount_cents)
       VALUES ($1, 'ledger', $2, '99213', 'Clinic', 'Late visit', 1, 2500) RETURNING transaction_id`,
      [memberId, addDays(ended, 2)],
    );
    const id = made[0]?.transaction_id as number;
    // Its date kept (an empty date keeps the stored one): refused.
    const kept = await as.member(LedgerApi.update.path, { ...entry(''), Amount: 30, TransactionID: id, Version: 1 });
    expect(kept.status).toBe(409);
    expect(kept.body.MsgText).toBe(refusedEn);
    const back = await as.member(LedgerApi.update.path, { ...entry(ended), TransactionID: id, Version: 1 });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const other = await server.database.sql.query<{ transaction_id: number }>(
      `INSERT INTO ledger_transactions (member_id, source, date_created, code, company, description, transaction_type_id, amount_cents)
       VALUES ($1, 'ledger', $2, '99213', 'Clinic', 'Late visit', 1, 2500) RETURNING transaction_id`,
      [memberId, addDays(ended, 3)],
    );
    expect((await as.superUser(LedgerApi.delete.path, { TransactionID: other[0]?.transaction_id, Version: 1 })).status).toBe(200);
  });

  it('a create repeated with a key used before the termination answers its first row and adds nothing', async () => {
    const id = (await makeUser(server, { userName: 'ended-ledger-key', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
    const session = await signIn(server, 'ended-ledger-key');
    const body = entry(addDays(ended, 4));
    const first = await call(session, LedgerApi.create.path, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await terminate(id);
    const again = await call(session, LedgerApi.create.path, body);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((again.body.Data as { TransactionID: number }).TransactionID).toBe((first.body.Data as { TransactionID: number }).TransactionID);
    expect(await rows(id)).toBe(1);
    // A new key for the same day is a new row: refused.
    expect((await call(session, LedgerApi.create.path, entry(addDays(ended, 4)))).status).toBe(409);
  });

  it("sees a termination committed just before the write's transaction began (checked in it, not before it)", async () => {
    const id = (await makeUser(server, { userName: 'ended-ledger-race', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
    const session = await signIn(server, 'ended-ledger-race');
    const made = await call(session, LedgerApi.create.path, entry(addDays(ended, 1)));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const row = made.body.Data as { TransactionID: number; Version: number };
    const database = server.database.sql;
    const real = database.transaction.bind(database);
    // The membership ends once the handler's own checks have passed, as its transaction begins.
    const spy = vi.spyOn(database, 'transaction').mockImplementation(async <T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> => {
      await terminate(id);
      return real(fn);
    });
    try {
      const create = await call(session, LedgerApi.create.path, entry(addDays(ended, 2)));
      expect(create.status, JSON.stringify(create.body)).toBe(409);
      await database.query('UPDATE members SET termination_date = NULL WHERE member_id = $1', [id]);
      const edit = await call(session, LedgerApi.update.path, { ...entry(addDays(ended, 3)), TransactionID: row.TransactionID, Version: row.Version });
      expect(edit.status, JSON.stringify(edit.body)).toBe(409);
    } finally {
      spy.mockRestore();
    }
    expect(await rows(id)).toBe(1);
  });
});
