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

async function ledgerRow(day: string, type: number, cents: number, description: string): Promise<number> {
  const rows = await server.database.sql.query<{ transaction_id: number }>(
    `INSERT INTO ledger_transactions (member_id, source, status, date_created, company, description, transaction_type_id, amount_cents)
     VALUES ($1, 'ledger', 'Posted', $2, 'Test Co', $3, $4, $5) RETURNING transaction_id`,
    [carolId, day, description, type, cents],
  );
  return rows[0]?.transaction_id ?? 0;
}

let expense: number;
let deposit: number;

beforeAll(async () => {
  server = await startTestServer();
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

  it('plans again after a row is deleted: without the deposit the balance stays below zero, a permanent letter; the temporary one stays', async () => {
    await server.database.sql.query('DELETE FROM ledger_transactions WHERE transaction_id = $1', [deposit]);
    const listed = await documents();
    expect(listed).toContainEqual([DocumentType.PermanentDepletion, `${lastYear}-02-10`]);
    expect(listed).toContainEqual([DocumentType.TemporaryDepletion, `${lastYear}-02-10`]);
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
