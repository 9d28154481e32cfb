import { Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, LedgerApi, todayUtc } from '../contract';

/** The ledger's lists: text sorts (code, company, description, the activity's text) ignore case, as a reader expects; a page past the end still counts the rows. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let member: Session;
let memberId: number;

type Json = Record<string, unknown>;
const search = async (path: string, body: Json): Promise<Json[]> => {
  const res = await server.app.inject({ method: 'POST', url: path, headers: authHeaders(member, 'card'), payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: { Items: Json[] } }).Data.Items;
};

beforeAll(async () => {
  server = await startTestServer();
  memberId = (await makeUser(server, { userName: 'sort-case', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  member = await signIn(server, 'sort-case');
  await server.database.sql.query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 100000)', [memberId]);
  const day = addDays(todayUtc(), -10);
  for (const [code, company, description] of [
    ['Z100', 'Zeta Labs', 'x-ray'],
    ['a200', 'acme pharmacy', 'Office visit'],
    ['C300', 'CVS', 'bandages'],
    ['b400', 'beta clinic', 'Antibiotics'],
  ]) {
    await server.database.sql.query(
      `INSERT INTO ledger_transactions (member_id, source, date_created, code, company, description, transaction_type_id, amount_cents)
       VALUES ($1, 'ledger', $2, $3, $4, $5, 1, 1000)`,
      [memberId, day, code, company, description],
    );
  }
}, 240_000);
afterAll(() => server?.close());

describe("the ledger's text sorts ignore case (the database's collation alone put lower case last)", () => {
  it('sorts the ledger by company, code and description, either way', async () => {
    const by = async (SortColumn: string, SortOrder: 'asc' | 'desc', field: string) =>
      (await search(LedgerApi.search.path, { Query: {}, SortColumn, SortOrder, PageSize: 20 })).map((r) => r[field]);
    expect(await by('Company', 'asc', 'Company')).toEqual(['acme pharmacy', 'beta clinic', 'CVS', 'Zeta Labs']);
    expect(await by('Company', 'desc', 'Company')).toEqual(['Zeta Labs', 'CVS', 'beta clinic', 'acme pharmacy']);
    expect(await by('Code', 'asc', 'Code')).toEqual(['a200', 'b400', 'C300', 'Z100']);
    expect(await by('Description', 'asc', 'Description')).toEqual(['Antibiotics', 'bandages', 'Office visit', 'x-ray']);
  });

  it("sorts the activity by its text ('company - description')", async () => {
    const texts = (await search(LedgerApi.financialsSearch.path, { Query: {}, SortColumn: 'text', SortOrder: 'asc', PageSize: 20 })).map((r) => r.text);
    expect(texts).toEqual(['acme pharmacy - Office visit', 'beta clinic - Antibiotics', 'CVS - bandages', 'Zeta Labs - x-ray']);
  });
});

describe('a page past the end (the range narrowed while on a later page) still answers how many rows there are', () => {
  it('in the ledger and the activity', async () => {
    const page = async (path: string, PageIndex: number) => {
      const res = await server.app.inject({ method: 'POST', url: path, headers: authHeaders(member, 'card'), payload: { Query: {}, PageSize: 20, PageIndex } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { Data: { Items: Json[]; ItemCount: number } }).Data;
    };
    for (const path of [LedgerApi.search.path, LedgerApi.financialsSearch.path]) {
      const first = await page(path, 0);
      expect(first.ItemCount, path).toBe(4);
      expect(await page(path, 5), path).toMatchObject({ Items: [], ItemCount: 4 });
    }
  });
});
