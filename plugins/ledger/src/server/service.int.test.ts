import { Roles } from '@portal/core';
import type { SqlClient } from '@portal/server';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeLedgerService } from './service';

/**
 * The ledger's service as other plugins read it: `period` reads the opening balance and the rows in one snapshot (review
 * atomic, finding 4: an edit committed between two reads counted a row twice), and `postBankTransactions` in a
 * caller's transaction (the banking sync) commits or rolls back with it and leaves the low-balance rule to the caller.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
const sql = () => server.database.sql;

/** A member with an initial balance of $1,000.00 and two expenses: $300.00 on `day300`, $100.00 on 2026-01-10. */
async function memberWithRows(name: string, day300: string) {
  const id = (await makeUser(server, { userName: name, roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
  await sql().query('INSERT INTO ledger_accounts (member_id, initial_balance_cents) VALUES ($1, 100000)', [id]);
  const add = async (day: string, cents: number) =>
    (
      await sql().query<{ transaction_id: number }>(
        `INSERT INTO ledger_transactions (member_id, source, date_created, code, company, description, transaction_type_id, amount_cents)
         VALUES ($1, 'ledger', $2, '99213', 'Clinic', 'Visit', 1, $3) RETURNING transaction_id`,
        [id, day, cents],
      )
    )[0]?.transaction_id as number;
  return { id, moved: await add(day300, 30000), later: await add('2026-01-10', 10000) };
}

/**
 * `sql` as the service sees it, with a member's edit committed right after the first statement the service sends
 * (outside any transaction of the service's, as another request's would be).
 */
function editAfterFirstStatement(inner: SqlClient, edit: () => Promise<void>): SqlClient {
  let done = false;
  const after = async <T>(result: T) => {
    if (!done) {
      done = true;
      await edit();
    }
    return result;
  };
  return {
    query: async (text, params, opts) => after(await inner.query(text, params, opts)),
    transaction: (fn) =>
      inner.transaction((tx) =>
        fn({
          query: async (text, params, opts) => after(await tx.query(text, params, opts)),
          transaction: (f) => tx.transaction(f),
          exec: (text) => tx.exec(text),
        }),
      ),
    exec: (text) => inner.exec(text),
  };
}

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('period', () => {
  it('reads the opening balance and the rows in one snapshot: a date moved across the start while it reads counts once', async () => {
    const { id, moved } = await memberWithRows('ledger-period-snapshot', '2025-12-20');
    const ledger = makeLedgerService(
      editAfterFirstStatement(sql(), async () => {
        await sql().query(`UPDATE ledger_transactions SET date_created = '2026-01-05' WHERE transaction_id = $1`, [moved]);
      }),
    );
    const p = await ledger.period(id, '2026-01-01', '2026-01-31');
    const seen = { opening: p.openingCents, closing: p.closingCents, rows: p.rows.map((r) => [r.date, r.signedCents]) };
    // Before the edit: the $300.00 is in the opening; after it: among the rows. Never both (closing $300.00).
    const beforeEdit = { opening: 70000, closing: 60000, rows: [['2026-01-10', -10000]] };
    const afterEdit = {
      opening: 100000,
      closing: 60000,
      rows: [
        ['2026-01-05', -30000],
        ['2026-01-10', -10000],
      ],
    };
    expect([beforeEdit, afterEdit]).toContainEqual(seen);
    expect(p.initialCents).toBe(100000);
    expect(p.rows.at(-1)?.balanceCents).toBe(60000);
    // The edit did commit: read again, the period is the one after it.
    const again = await makeLedgerService(sql()).period(id, '2026-01-01', '2026-01-31');
    expect({ opening: again.openingCents, closing: again.closingCents, rows: again.rows.map((r) => [r.date, r.signedCents]) }).toEqual(afterEdit);
  });

  it('answers the opening and closing balance of a period with no rows, and every row of an open period', async () => {
    const { id } = await memberWithRows('ledger-period-empty', '2025-12-20');
    const ledger = makeLedgerService(sql());
    expect(await ledger.period(id, '2026-02-01', '2026-02-28')).toEqual({ initialCents: 100000, openingCents: 60000, closingCents: 60000, rows: [] });
    const all = await ledger.period(id, null, null);
    expect({ opening: all.openingCents, closing: all.closingCents, balances: all.rows.map((r) => [r.date, r.balanceCents]) }).toEqual({
      opening: 100000,
      closing: 60000,
      balances: [
        ['2025-12-20', 70000],
        ['2026-01-10', 60000],
      ],
    });
    // No initial balance and no rows: nulls and zeros, no row.
    const none = (await makeUser(server, { userName: 'ledger-period-none', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
    expect(await ledger.period(none, '2026-01-01', null)).toEqual({ initialCents: null, openingCents: 0, closingCents: 0, rows: [] });
  });
});

describe("bank rows posted in the caller's transaction", () => {
  it('commit and roll back with it, and leave the low-balance rule to the caller (afterBankPosting)', async () => {
    const balanceChanged = vi.fn(async (_memberId: number) => {});
    const ledger = makeLedgerService(sql(), balanceChanged);
    const id = (await makeUser(server, { userName: 'ledger-bank-caller', roles: [Roles.CareGuard], brand: 'card', member: true })).memberId as number;
    const row = { ref: 'bank:caller-1', date: '2026-01-02', company: 'Caller Bank Checking', description: 'Deposit', signedCents: 5000 };
    const bankRows = async () =>
      (await sql().query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_transactions WHERE member_id = $1 AND source = 'bank'`, [id]))[0]?.n;
    await expect(
      sql().transaction(async (tx) => {
        expect(await ledger.postBankTransactions(id, [row], tx)).toBe(1);
        throw new Error('the caller failed after the posting');
      }),
    ).rejects.toThrow('the caller failed after the posting');
    expect(await bankRows()).toBe(0);
    expect(await sql().transaction((tx) => ledger.postBankTransactions(id, [row], tx))).toBe(1);
    expect(await bankRows()).toBe(1);
    expect(balanceChanged).not.toHaveBeenCalled();
    await ledger.afterBankPosting(id);
    expect(balanceChanged).toHaveBeenCalledTimes(1);
    // Without a transaction, the posting runs the rule itself after its commit, when it added rows.
    expect(await ledger.postBankTransactions(id, [{ ...row, ref: 'bank:caller-2' }])).toBe(1);
    expect(balanceChanged).toHaveBeenCalledTimes(2);
  });
});
