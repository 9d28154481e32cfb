import { Roles } from '@portal/core';
import { LedgerApi } from '@portal/plugin-ledger/contract';
import type { LedgerPeriod, LedgerService } from '@portal/plugin-ledger/service';
import { deferred } from '@portal/testing/deferred';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentsApi } from '../contract';
import { freezeStatements, type StatementSnapshot } from './freeze';

/**
 * A monthly statement is frozen once issued: the same document keeps its figures whatever is written to its period
 * later, and those later changes show on the next statement issued as adjustments to earlier periods, so each
 * statement opens at the previous one's closing and closes at the ledger's balance.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let staff: Session;

const ZONE = 'America/Chicago';
const pdfText = async (raw: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(raw)), { mergePages: true })).text;
/** Noon in Chicago on `day` (back in time, so sessions signed in now are still live). */
const at = (day: string) => vi.setSystemTime(new Date(`${day}T18:00:00Z`));

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: ZONE });
  await makeUser(server, { userName: 'freeze-super', roles: [Roles.SuperUser], brand: 'staff' });
  staff = await signIn(server, 'freeze-super');
});
afterAll(() => server?.close());
afterEach(() => vi.useRealTimers());

async function member(userName: string, initialCents: number) {
  const { memberId } = await makeUser(server, { userName, roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
  if (memberId === null) throw new Error('no member');
  const session = await signIn(server, userName, undefined, '10.0.0.1', 'finance');
  const sql = server.database.sql;
  await sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, $2)', [memberId, initialCents]);
  const row = async (day: string, type: number, cents: number, company: string, description: string) =>
    (
      await sql.query<{ transaction_id: number }>(
        `INSERT INTO ledger_transactions (member_id, source, status, date_created, company, description, transaction_type_id, amount_cents)
         VALUES ($1, 'ledger', 'Posted', $2, $3, $4, $5, $6) RETURNING transaction_id`,
        [memberId, day, company, description, type, cents],
      )
    )[0]?.transaction_id ?? 0;
  const months = async (year: number) => {
    const res = await server.app.inject({
      method: 'GET',
      url: `${DocumentsApi.monthlyStatements.path}?selectedYear=${year}`,
      headers: authHeaders(session),
    });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries((res.json().Data as { DocumentId: number; EffectiveMonth: string }[]).map((m) => [m.EffectiveMonth, m.DocumentId]));
  };
  const download = async (id: number | undefined, language?: 'es') => {
    const res = await server.app.inject({
      method: 'GET',
      url: `${DocumentsApi.downloadStatement.path}?documentId=${id}`,
      headers: authHeaders(session, undefined, language ? { cookie: `cq.lang=${language}` } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  };
  /** The ledger's balance over every row (what the last statement must close at). */
  const balance = async () =>
    (
      await sql.query<{ cents: number }>(
        `SELECT ($2 + COALESCE(sum(CASE WHEN transaction_type_id = 1 THEN -amount_cents ELSE amount_cents END), 0))::float8 AS cents
         FROM ledger_transactions WHERE member_id = $1`,
        [memberId, initialCents],
      )
    )[0]?.cents;
  return { memberId, session, row, months, download, balance };
}

const closing = (text: string) => /Closing balance\s*(\S+)/.exec(text)?.[1];
const opening = (text: string) => /Opening balance\s*(\S+)/.exec(text)?.[1];

describe('an issued statement is frozen', () => {
  it('keeps October at $975.00 after a back-dated row; November shows the adjustments with their dates, opens at $975.00 and closes at the ledger balance', async () => {
    const m = await member('freeze-fran', 100000);
    const copay = await m.row('2025-10-05', 1, 2500, 'Pharmacy', 'Copay');
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2025-11-10');
    const october = (await m.months(2025))['2025-10'];
    expect(Object.keys(await m.months(2025))).toEqual(['2025-10']);
    const first = await m.download(october);
    const firstText = await pdfText(first);
    expect(closing(firstText)).toBe('$975.00');
    // Issued on the business day the statement was first listed: its row's creation (the database's clock, which the
    // faked clock moves on PGlite only).
    const issuedDay = (
      await server.database.sql.query<{ day: string }>(
        `SELECT to_char(created_at AT TIME ZONE $2, 'Mon FMDD, YYYY') AS day FROM member_documents WHERE document_id = $1`,
        [october, ZONE],
      )
    )[0]?.day;
    expect(firstText).toContain(`Issued on ${issuedDay}`);
    expect(firstText).not.toContain('Adjustments to earlier periods');

    // SuperUser acting for the member adds a row dated October 20 (the reviewer's repro), and the October copay is
    // corrected from $25.00 to $30.00; November has a deposit of its own.
    const late = await server.app.inject({
      method: 'POST',
      url: LedgerApi.create.path,
      headers: authHeaders(staff, 'staff', { 'x-member-id': String(m.memberId) }),
      payload: {
        DateCreated: '2025-10-20',
        Company: 'Clinic',
        Description: 'Late entry',
        TransactionTypeID: 1,
        Amount: '300',
        IdempotencyKey: '6f1c1d2e-0000-4000-8000-00000000f001',
      },
    });
    expect(late.statusCode, late.body).toBe(200);
    await server.database.sql.query('UPDATE ledger_transactions SET amount_cents = 3000, version = version + 1 WHERE transaction_id = $1', [copay]);
    await m.row('2025-11-03', 2, 5000, 'Trust', 'Deposit');

    // The same October statement: the same bytes, the same $975.00.
    const again = await m.download((await m.months(2025))['2025-10']);
    expect(Buffer.compare(again, first)).toBe(0);
    expect(closing(await pdfText(again))).toBe('$975.00');

    // November is over: its statement opens at October's closing and lists the changes to October.
    at('2025-12-02');
    const listed = await m.months(2025);
    expect(Object.keys(listed)).toEqual(['2025-10', '2025-11']);
    expect(listed['2025-10']).toBe(october);
    const november = await pdfText(await m.download(listed['2025-11']));
    expect(opening(november)).toBe('$975.00');
    const flat = november.replace(/\s+/g, ' ');
    expect(flat).toContain('Adjustments to earlier periods');
    expect(flat).toContain('2025-10-05 Corrected: Pharmacy - Copay, was -$25.00 Expense -$5.00');
    expect(flat).toContain('2025-10-20 Added: Clinic - Late entry Expense -$300.00');
    expect(flat).toContain('Total adjustments -$305.00');
    // $975.00 - $305.00 + $50.00: the ledger's balance.
    expect(flat).toContain('2025-11-03 Trust - Deposit Deposit $50.00 $720.00');
    expect(closing(november)).toBe('$720.00');
    expect(await m.balance()).toBe(72000);
    expect(closing(await pdfText(await m.download(october)))).toBe('$975.00');

    // In Spanish, the section and its lines in the catalogue's words.
    const spanish = (await pdfText(await m.download(listed['2025-11'], 'es'))).replace(/\s+/g, ' ');
    for (const expected of [
      'Ajustes de períodos anteriores',
      'Agregada: Clinic - Late entry',
      'Corregida: Pharmacy - Copay, antes -$25.00',
      'Total de ajustes',
      'Fecha de emisión',
    ])
      expect(spanish).toContain(expected);
    expect(spanish).not.toContain('Adjustments to earlier periods');

    // The late row deleted in December: December's statement gives the $300.00 back, dated as November showed it.
    await server.database.sql.query(
      'DELETE FROM ledger_transactions WHERE transaction_id = (SELECT transaction_id FROM ledger_transactions WHERE member_id = $1 AND company = $2)',
      [m.memberId, 'Clinic'],
    );
    at('2026-01-05');
    const december = (await pdfText(await m.download((await m.months(2025))['2025-12']))).replace(/\s+/g, ' ');
    expect(opening(december)).toBe('$720.00');
    expect(december).toContain('2025-10-20 Removed: Clinic - Late entry Expense $300.00');
    expect(december).toContain('No transactions this month.');
    expect(closing(december)).toBe('$1,020.00');
    expect(await m.balance()).toBe(102000);
  });

  it('freezes a statement issued before statements were frozen at its next download, once when two downloads race', async () => {
    const m = await member('freeze-gus', 50000);
    await m.row('2025-08-12', 1, 1000, 'Lab', 'Blood test');
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2025-10-03');
    const months = await m.months(2025);
    expect(Object.keys(months)).toEqual(['2025-08', '2025-09']);
    // As if issued before this change: no snapshot. A row dated in August arrives meanwhile.
    await server.database.sql.query('UPDATE member_documents SET snapshot = NULL WHERE member_id = $1', [m.memberId]);
    await m.row('2025-08-20', 1, 500, 'Lab', 'Urine test');

    // Two downloads of September and one of August at once; the snapshot writes that took (a row returned) counted.
    const query = vi.spyOn(server.database.sql, 'query');
    let pdfs: Buffer[];
    let writes: number[];
    try {
      pdfs = await Promise.all([m.download(months['2025-09']), m.download(months['2025-09']), m.download(months['2025-08'])]);
      writes = await Promise.all(
        query.mock.calls.map(async ([text], i) =>
          String(text).includes('SET snapshot') ? (((await query.mock.results[i]?.value) as unknown[] | undefined)?.length ?? 0) : -1,
        ),
      );
    } finally {
      query.mockRestore();
    }
    // One snapshot written per statement (August, September), however many requests froze them.
    expect(writes.filter((w) => w >= 0).length).toBeGreaterThanOrEqual(2);
    expect(writes.filter((w) => w > 0)).toEqual([1, 1]);
    expect(Buffer.compare(pdfs[0] as Buffer, pdfs[1] as Buffer)).toBe(0);
    // Frozen from the ledger as it was at the download: August has both tests.
    const august = await pdfText(pdfs[2] as Buffer);
    expect(august).toContain('Urine test');
    expect(closing(august)).toBe('$485.00');
    expect(opening(await pdfText(pdfs[0] as Buffer))).toBe('$485.00');
  });

  it('two freezes computing at once: the first snapshot written stands, the other reads it back and never overwrites it', async () => {
    const m = await member('freeze-hana', 10000);
    await m.row('2025-06-02', 1, 100, 'Pharmacy', 'Copay');
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2025-07-08');
    const june = (await m.months(2025))['2025-06'];
    await server.database.sql.query('UPDATE member_documents SET snapshot = NULL WHERE document_id = $1', [june]);
    // Two ledgers that answer differently, each waiting until both have read: both freezes compute a snapshot.
    let arrived = 0;
    const bothRead = deferred();
    const ledger = (closingCents: number): LedgerService => {
      const entry = { id: 1, date: '2025-06-02', code: null, company: 'Pharmacy', description: 'Copay', typeId: 1, typeName: 'Expense' };
      const answer: LedgerPeriod = {
        initialCents: 10000,
        openingCents: 10000,
        closingCents,
        rows: [{ ...entry, signedCents: closingCents - 10000, balanceCents: closingCents }],
      };
      return {
        period: async () => {
          if (++arrived === 2) bothRead.release();
          await bothRead.promise;
          return answer;
        },
      } as unknown as LedgerService;
    };
    await Promise.all([
      freezeStatements(server.database.sql, ledger(9900), m.memberId, ZONE),
      freezeStatements(server.database.sql, ledger(9000), m.memberId, ZONE),
    ]);
    const stored = (await server.database.sql.query<{ snapshot: StatementSnapshot }>('SELECT snapshot FROM member_documents WHERE document_id = $1', [june]))[0]
      ?.snapshot;
    // Which one writes first depends on the engine (PGlite runs one statement at a time; PostgreSQL two connections):
    // one of the two, and the download shows the one stored.
    expect([9900, 9000]).toContain(stored?.closingCents);
    expect(closing(await pdfText(await m.download(june)))).toBe(stored?.closingCents === 9900 ? '$99.00' : '$90.00');
  });
});
