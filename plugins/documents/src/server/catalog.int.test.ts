import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentsApi, DocumentType } from '../contract';

/**
 * The catalogue is planned from the member's ledger only when the ledger (or the month) moved since the last plan: a
 * list with nothing changed reads member_documents alone; an insert, an edit and a delete of a ledger row (by any
 * writer: here SQL, as the ledger's own triggers see every writer) each make the next list plan again.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
let carol: Session;
let carolId: number;

const BUSINESS_ZONE = 'America/Chicago';
const lastYear = new Date().getUTCFullYear() - 1;
const yearBefore = lastYear - 1;

const post = (url: string, payload: unknown) => server.app.inject({ method: 'POST', url, headers: authHeaders(carol), payload: payload as object });
const get = (url: string) => server.app.inject({ method: 'GET', url, headers: authHeaders(carol) });

type Item = { DocumentTypeId: number; EffectiveDate: string };
const documents = async () => {
  const res = await post(DocumentsApi.getMemberDocuments.path, { PageSize: 100, PageNumber: 1 });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().Data.Items as Item[]).map((i) => [i.DocumentTypeId, i.EffectiveDate]).sort();
};
const statementMonths = async (year: number) => {
  const res = await post(DocumentsApi.statementSearch.path, { Year: year, PageSize: 100, PageNumber: 1 });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().Data.Items as { EffectiveMonth: string }[]).map((i) => i.EffectiveMonth).sort();
};

/** The statements `calls` sent that read or wrote the ledger's rows (ledger_transactions), and whether any planned. */
async function ledgerReads(calls: () => Promise<unknown>): Promise<string[]> {
  const query = vi.spyOn(server.database.sql, 'query');
  try {
    await calls();
    return query.mock.calls.map(([text]) => String(text)).filter((text) => text.includes('ledger_transactions'));
  } finally {
    query.mockRestore();
  }
}
const everyList = async () => {
  await documents();
  await statementMonths(lastYear);
  expect((await get(DocumentsApi.effectiveYears.path)).statusCode).toBe(200);
  expect((await get(`${DocumentsApi.monthlyStatements.path}?selectedYear=${lastYear}`)).statusCode).toBe(200);
};

async function ledgerRow(day: string, type: number, cents: number, description: string, memberId = carolId): Promise<number> {
  const rows = await server.database.sql.query<{ transaction_id: number }>(
    `INSERT INTO ledger_transactions (member_id, source, status, date_created, company, description, transaction_type_id, amount_cents)
     VALUES ($1, 'ledger', 'Posted', $2, 'Test Co', $3, $4, $5) RETURNING transaction_id`,
    [memberId, day, description, type, cents],
  );
  return rows[0]?.transaction_id ?? 0;
}

let expense: number;
let deposit: number;

beforeAll(async () => {
  server = await startTestServer({ businessTimeZone: BUSINESS_ZONE });
  const { memberId } = await makeUser(server, { userName: 'docs-carol', roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
  if (memberId === null) throw new Error('no member');
  carolId = memberId;
  carol = await signIn(server, 'docs-carol', undefined, '10.0.0.1', 'finance');
  // $100.00 to start; $40.00 out in February of last year, $10.00 back in April: never depleted.
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 10000)', [carolId]);
  expense = await ledgerRow(`${lastYear}-02-10`, 1, 4000, 'Wheelchair');
  deposit = await ledgerRow(`${lastYear}-04-01`, 2, 1000, 'Refund');
});
afterAll(() => server?.close());

describe('planning the generated documents', () => {
  it("plans on the first list, then lists without reading the member's ledger rows while the ledger has not changed", async () => {
    expect(await ledgerReads(documents)).not.toEqual([]);
    expect(await documents()).toEqual([[DocumentType.AnnualAccounting, `${lastYear}-12-31`]]);
    expect(await ledgerReads(everyList)).toEqual([]);
    // Another member's new row is no change of Carol's ledger.
    await server.database.sql.query(
      `INSERT INTO ledger_transactions (member_id, source, status, date_created, transaction_type_id, amount_cents) VALUES ($1, 'ledger', 'Posted', $2, 1, 100)`,
      [carolId + 1000, `${lastYear}-01-01`],
    );
    expect(await ledgerReads(everyList)).toEqual([]);
  });

  it("plans again after a row is inserted: the new months' statements, that year's 1099 and annual accounting", async () => {
    expect(await statementMonths(yearBefore)).toEqual([]);
    await ledgerRow(`${yearBefore}-11-05`, 3, 100, 'Interest');
    expect(await statementMonths(yearBefore)).toEqual([`${yearBefore}-11`, `${yearBefore}-12`]);
    expect(await documents()).toEqual(
      [
        [DocumentType.Form1099, `${yearBefore}-12-31`],
        [DocumentType.AnnualAccounting, `${yearBefore}-12-31`],
        [DocumentType.AnnualAccounting, `${lastYear}-12-31`],
      ].sort(),
    );
    expect(await ledgerReads(everyList)).toEqual([]);
  });

  it('plans again after a row is edited: the balance now reaches zero and recovers, a temporary depletion letter', async () => {
    // $101.00 - $105.00 falls below zero on the 10th of February; April's $10.00 funds the account again.
    await server.database.sql.query('UPDATE ledger_transactions SET amount_cents = 10500, version = version + 1 WHERE transaction_id = $1', [expense]);
    expect(await documents()).toContainEqual([DocumentType.TemporaryDepletion, `${lastYear}-02-10`]);
    expect(await ledgerReads(everyList)).toEqual([]);
  });

  it('plans again after a row is deleted: without the deposit the balance stays below zero, a permanent letter replaces the temporary one', async () => {
    await server.database.sql.query('DELETE FROM ledger_transactions WHERE transaction_id = $1', [deposit]);
    const listed = await documents();
    expect(listed).toContainEqual([DocumentType.PermanentDepletion, `${lastYear}-02-10`]);
    expect(listed).not.toContainEqual([DocumentType.TemporaryDepletion, `${lastYear}-02-10`]);
    expect(await ledgerReads(everyList)).toEqual([]);
  });

  it('plans again once the initial balance is set, and once the month planned in is over', async () => {
    const { memberId } = await makeUser(server, { userName: 'docs-dave', roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
    const dave = await signIn(server, 'docs-dave', undefined, '10.0.0.1', 'finance');
    const list = async () => {
      const res = await server.app.inject({
        method: 'POST',
        url: DocumentsApi.getMemberDocuments.path,
        headers: authHeaders(dave),
        payload: { PageSize: 100, PageNumber: 1, DocumentTypeIds: [DocumentType.PermanentDepletion] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().Data.Items as Item[]).map((i) => [i.DocumentTypeId, i.EffectiveDate]);
    };
    await server.database.sql.query(
      `INSERT INTO ledger_transactions (member_id, source, status, date_created, transaction_type_id, amount_cents) VALUES ($1, 'ledger', 'Posted', $2, 1, 2500)`,
      [memberId, `${lastYear}-06-15`],
    );
    // No initial balance yet: no account to deplete.
    expect(await list()).toEqual([]);
    await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 2500)', [memberId]);
    expect(await list()).toEqual([[DocumentType.PermanentDepletion, `${lastYear}-06-15`]]);
    expect(await ledgerReads(list)).toEqual([]);
    // A plan made in an earlier month: this month's list plans again (last month's statement is due now).
    await server.database.sql.query("UPDATE member_document_plans SET planned_month = '2000-01' WHERE member_id = $1", [memberId]);
    expect(await ledgerReads(list)).not.toEqual([]);
    expect(await ledgerReads(list)).toEqual([]);
  });
});

/** A finance member with an initial balance, signed in, and how to list their documents and statements. */
async function fundedMember(userName: string, initialCents: number) {
  const { memberId } = await makeUser(server, { userName, roles: [Roles.CareGuardFinance], brand: 'finance', member: true });
  if (memberId === null) throw new Error('no member');
  const session = await signIn(server, userName, undefined, '10.0.0.1', 'finance');
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, $2)', [memberId, initialCents]);
  const call = (url: string, payload?: unknown) =>
    server.app.inject({ method: payload === undefined ? 'GET' : 'POST', url, headers: authHeaders(session), payload: payload as object });
  const list = async () => {
    const res = await call(DocumentsApi.getMemberDocuments.path, { PageSize: 100, PageNumber: 1 });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().Data.Items as { DocumentId: number; DocumentTypeId: number; EffectiveDate: string; FileName: string }[];
  };
  const letters = async () => (await list()).map((i) => [i.DocumentTypeId, i.EffectiveDate]).sort();
  const months = async (year: number) => {
    const res = await call(DocumentsApi.statementSearch.path, { Year: year, PageSize: 100, PageNumber: 1 });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().Data.Items as { EffectiveMonth: string }[]).map((i) => i.EffectiveMonth).sort();
  };
  const download = (id: number) => call(DocumentsApi.downloadDocument.path, { DocumentId: id });
  const row = (day: string, type: number, cents: number, description: string) => ledgerRow(day, type, cents, description, memberId);
  const amend = (id: number, cents: number) =>
    server.database.sql.query('UPDATE ledger_transactions SET amount_cents = $2, version = version + 1 WHERE transaction_id = $1', [id, cents]);
  return { memberId, call, list, letters, months, download, row, amend };
}

const audits = (memberId: number, action: string) =>
  server.database.sql.query<{ actor_name: string | null; entity_id: string; detail: { type: number; date: string } }>(
    'SELECT actor_name, entity_id, detail FROM audit_log WHERE member_id = $1 AND action = $2 ORDER BY id',
    [memberId, action],
  );

describe('depletion letters follow the ledger', () => {
  it('withdraws the permanent letter of a typo once it is corrected, and lists the same letter again if the ledger calls for it again', async () => {
    const erin = await fundedMember('docs-erin', 10000);
    // $100.00, then an expense typed as $1,500.00: the account is empty on 2025-03-10 and stays so.
    const typo = await erin.row('2025-03-10', 1, 150000, 'Visit');
    expect(await erin.letters()).toEqual([
      [DocumentType.AnnualAccounting, '2025-12-31'],
      [DocumentType.PermanentDepletion, '2025-03-10'],
    ]);
    const letter = (await erin.list()).find((i) => i.DocumentTypeId === DocumentType.PermanentDepletion)?.DocumentId ?? 0;
    expect((await erin.download(letter)).statusCode).toBe(200);

    // Corrected to $15.00: the balance is $85.00, and no letter says the account is depleted.
    await erin.amend(typo, 1500);
    expect(await erin.letters()).toEqual([[DocumentType.AnnualAccounting, '2025-12-31']]);
    expect((await erin.download(letter)).statusCode).toBe(404);
    // The row stays, withdrawn, so the audit log's ids keep naming it; the withdrawal is audited as the system's.
    const stored = await server.database.sql.query<{ withdrawn: boolean }>(
      'SELECT withdrawn_at IS NOT NULL AS withdrawn FROM member_documents WHERE document_id = $1',
      [letter],
    );
    expect(stored).toEqual([{ withdrawn: true }]);
    expect(await audits(erin.memberId, 'documents.withdraw')).toEqual([
      expect.objectContaining({ actor_name: 'system', entity_id: String(letter), detail: expect.objectContaining({ type: 4, date: '2025-03-10' }) }),
    ]);

    // Typed wrong again: the same letter, under the same id.
    await erin.amend(typo, 150000);
    expect((await erin.list()).filter((i) => i.DocumentTypeId === DocumentType.PermanentDepletion).map((i) => i.DocumentId)).toEqual([letter]);
    expect((await erin.download(letter)).statusCode).toBe(200);
    expect(await audits(erin.memberId, 'documents.reinstate')).toEqual([expect.objectContaining({ actor_name: 'system', entity_id: String(letter) })]);
    await erin.amend(typo, 1500);
    expect(await erin.letters()).toEqual([[DocumentType.AnnualAccounting, '2025-12-31']]);
  });

  it('lists one temporary letter, not a permanent one beside it, for a depletion funded again the same day', async () => {
    const finn = await fundedMember('docs-finn', 8500);
    await finn.row('2025-04-02', 1, 20000, 'Surgery');
    expect(await finn.letters()).toContainEqual([DocumentType.PermanentDepletion, '2025-04-02']);
    await finn.row('2025-04-02', 2, 50000, 'Annual funding');
    const letters = (await finn.letters()).filter(([type]) => type !== DocumentType.AnnualAccounting);
    expect(letters).toEqual([[DocumentType.TemporaryDepletion, '2025-04-02']]);
  });

  it('never withdraws a letter staff uploaded', async () => {
    const gwen = await fundedMember('docs-gwen', 1000);
    const spend = await gwen.row('2025-06-15', 1, 5000, 'Wheelchair');
    await server.database.sql.query(
      `INSERT INTO member_documents (member_id, document_type_id, period_key, effective_date, source, file_key, file_name)
       VALUES ($1, $2, 'upload-test', '2025-06-15', 'uploaded', 'documents/test.pdf', 'signed letter.pdf')`,
      [gwen.memberId, DocumentType.PermanentDepletion],
    );
    expect((await gwen.list()).filter((i) => i.DocumentTypeId === DocumentType.PermanentDepletion).map((i) => i.FileName)).toEqual(
      ['permanent-depletion-letter-2025-06-15.pdf', 'signed letter.pdf'].sort(),
    );
    await gwen.amend(spend, 500);
    expect((await gwen.list()).filter((i) => i.DocumentTypeId === DocumentType.PermanentDepletion).map((i) => i.FileName)).toEqual(['signed letter.pdf']);
  });

  it('two lists planning at once: no error, each letter stored once and withdrawn once', async () => {
    const hal = await fundedMember('docs-hal', 1000);
    await hal.row('2025-07-01', 1, 2000, 'Pharmacy');
    const everything = () =>
      Promise.all([hal.letters(), hal.letters(), hal.months(2025), hal.letters(), hal.call(DocumentsApi.effectiveYears.path), hal.letters()]);
    const first = await everything();
    for (const letters of [first[0], first[1], first[3], first[5]]) expect(letters).toContainEqual([DocumentType.PermanentDepletion, '2025-07-01']);
    await hal.row('2025-07-01', 2, 5000, 'Deposit');
    const second = await everything();
    for (const letters of [second[0], second[1], second[3], second[5]]) {
      expect(letters).toContainEqual([DocumentType.TemporaryDepletion, '2025-07-01']);
      expect(letters).not.toContainEqual([DocumentType.PermanentDepletion, '2025-07-01']);
    }
    const rows = await server.database.sql.query<{ document_type_id: number; n: number }>(
      'SELECT document_type_id, count(*)::int AS n FROM member_documents WHERE member_id = $1 AND document_type_id IN (3, 4) GROUP BY document_type_id ORDER BY 1',
      [hal.memberId],
    );
    expect(rows).toEqual([
      { document_type_id: DocumentType.TemporaryDepletion, n: 1 },
      { document_type_id: DocumentType.PermanentDepletion, n: 1 },
    ]);
    expect(await audits(hal.memberId, 'documents.withdraw')).toHaveLength(1);
  });
});

describe("periods end on the business's day", () => {
  it("lists a month's statement and a year's documents once the month or year is over in Chicago, not in UTC", async () => {
    const ida = await fundedMember('docs-ida', 10000);
    await ida.row('2024-12-15', 1, 100, 'Copay');
    // Back in time, so the session signed in now is still live.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // 7 pm on Dec 31 in Chicago, already Jan 1 in UTC: December and 2024 are not over.
      vi.setSystemTime(new Date('2025-01-01T01:00:00Z'));
      expect(await ida.months(2024)).toEqual([]);
      expect(await ida.letters()).toEqual([]);
      // 7 pm on Jan 31 in Chicago, already Feb 1 in UTC: December and 2024 are over, January is not.
      vi.setSystemTime(new Date('2025-02-01T01:00:00Z'));
      expect(await ida.months(2024)).toEqual(['2024-12']);
      expect(await ida.months(2025)).toEqual([]);
      expect(await ida.letters()).toEqual([[DocumentType.AnnualAccounting, '2024-12-31']]);
      // Half past midnight on Feb 1 in Chicago: January's statement is due.
      vi.setSystemTime(new Date('2025-02-01T06:30:00Z'));
      expect(await ida.months(2025)).toEqual(['2025-01']);
    } finally {
      vi.useRealTimers();
    }
  });
});
