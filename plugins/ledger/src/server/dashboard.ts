import { dayIn } from '@portal/core';
import { KeptResults, type SqlClient } from '@portal/server';
import { TransactionType } from '../contract';
import { LEDGER_ROWS } from './repo';

const signed = `CASE WHEN transaction_type_id = ${TransactionType.Expense} THEN -amount_cents ELSE amount_cents END`;

/*
 * `today` below is the business's today (config.businessTimeZone, `businessToday` in repo.ts): the periods end on the
 * business's day and month, never UTC's (already tomorrow in a US evening).
 */

/**
 * Balance at the end of each of the last 12 months up to today's (Date: the month's first day), as loadBalance counts
 * it: this month's point is the balance as of today (rows dated after today count from their day). No initial balance:
 * no series (empty), as the tile shows no balance and the low-balance rule judges none (spec 02: null means no initial
 * balance yet).
 */
export async function balanceByMonth(sql: SqlClient, memberId: number, today: string): Promise<{ Date: string; Balance: number }[]> {
  const rows = await sql.query<{ day: string; cents: number }>(
    `SELECT to_char(m, 'YYYY-MM-DD') AS day,
       (a.initial_balance_cents
        + COALESCE((SELECT sum(${signed}) FROM ledger_transactions WHERE member_id = $1 AND ${LEDGER_ROWS}
                    AND date_created < m + interval '1 month' AND date_created <= $2::date), 0))::float8 AS cents
     FROM ledger_accounts a,
       generate_series(date_trunc('month', $2::date) - interval '11 months', date_trunc('month', $2::date), interval '1 month') m
     WHERE a.member_id = $1 AND a.initial_balance_cents IS NOT NULL ORDER BY m`,
    [memberId, today],
  );
  return rows.map((r) => ({ Date: r.day, Balance: Number(r.cents) / 100 }));
}

/** Net money in minus money out per month, the last 12 months up to today's. */
export async function netByMonth(sql: SqlClient, memberId: number, today: string): Promise<{ Date: string; Balance: number }[]> {
  const rows = await sql.query<{ day: string; cents: number }>(
    `SELECT to_char(m, 'YYYY-MM-DD') AS day,
       COALESCE((SELECT sum(${signed}) FROM ledger_transactions WHERE member_id = $1 AND ${LEDGER_ROWS}
                 AND date_created >= m AND date_created < m + interval '1 month'), 0)::float8 AS cents
     FROM generate_series(date_trunc('month', $2::date) - interval '11 months', date_trunc('month', $2::date), interval '1 month') m ORDER BY m`,
    [memberId, today],
  );
  return rows.map((r) => ({ Date: r.day, Balance: Number(r.cents) / 100 }));
}

export const SPENDING_SERIES = {
  time: { unit: 'day', count: 30 },
  month: { unit: 'month', count: 12 },
  quarter: { unit: 'quarter', count: 8 },
} as const;

/** Expenses per period (day, month or quarter) up to today's, oldest first, empty periods included. */
export async function spending(sql: SqlClient, memberId: number, series: keyof typeof SPENDING_SERIES, today: string) {
  const { unit, count } = SPENDING_SERIES[series];
  const step = unit === 'quarter' ? '3 months' : `1 ${unit}`;
  const rows = await sql.query<{ day: string; cents: number; n: number }>(
    `WITH p AS (SELECT generate_series(date_trunc('${unit}', $2::date) - ($3::int - 1) * interval '${step}', date_trunc('${unit}', $2::date), interval '${step}') AS s)
     SELECT to_char(p.s, 'YYYY-MM-DD') AS day, COALESCE(sum(t.amount_cents), 0)::float8 AS cents, count(t.transaction_id)::int AS n
     FROM p LEFT JOIN ledger_transactions t ON t.member_id = $1 AND t.${LEDGER_ROWS} AND t.transaction_type_id = ${TransactionType.Expense}
       AND t.date_created >= p.s AND t.date_created < p.s + interval '${step}'
     GROUP BY p.s ORDER BY p.s`,
    [memberId, today, count],
  );
  return rows.map((r) => ({ Date: r.day, Amount: Number(r.cents) / 100, NumberOfTransactions: r.n }));
}

/**
 * The admin balance: the set-asides with an initial balance, summed, with their initial amounts and how many. Every
 * member's (`memberId` null: a SuperUser acting for nobody) or the one member's own (`memberId`: anyone else), as of
 * `asOf` (the business's today).
 */
export async function adminBalance(sql: SqlClient, memberId: number | null, asOf: string) {
  const t = (c: string) => `t.${c}`;
  const row = (
    await sql.query<{ cents: number; initial: number; members: number }>(
      `WITH a AS (SELECT member_id, initial_balance_cents FROM ledger_accounts WHERE initial_balance_cents IS NOT NULL AND ($1::int IS NULL OR member_id = $1::int))
       SELECT COALESCE(sum(a.initial_balance_cents), 0)::float8 AS initial,
              (COALESCE(sum(a.initial_balance_cents), 0) + COALESCE((SELECT sum(${signed.replace(/amount_cents|transaction_type_id/g, t)})
                FROM ledger_transactions t JOIN a b ON b.member_id = t.member_id WHERE t.${LEDGER_ROWS} AND t.date_created <= $2::date), 0))::float8 AS cents,
              count(*)::int AS members
       FROM a`,
      [memberId, asOf],
    )
  )[0];
  return { Balance: Number(row?.cents ?? 0) / 100, InitialBalance: Number(row?.initial ?? 0) / 100, Members: row?.members ?? 0, AsOf: asOf };
}

/**
 * Every member's admin balance (a SuperUser acting for nobody) sums the whole ledger: it is kept for
 * ADMIN_BALANCE_TTL_MS per database handle (the kernel's KeptResults), dated from when it was taken, so it may be up
 * to a minute old; a sum being taken is shared by the same request arriving meanwhile. A member's own admin balance
 * is never kept.
 */
export const ADMIN_BALANCE_TTL_MS = 60_000;
type AdminBalance = Awaited<ReturnType<typeof adminBalance>>;
const keptAll = new WeakMap<SqlClient, KeptResults<AdminBalance>>();

export function everyMembersAdminBalance(sql: SqlClient, businessTimeZone: string): Promise<AdminBalance> {
  let kept = keptAll.get(sql);
  if (!kept) {
    kept = new KeptResults<AdminBalance>(ADMIN_BALANCE_TTL_MS, (value) => ({ ...value }));
    keptAll.set(sql, kept);
  }
  // AsOf: the business's day when the sum is taken.
  return kept.get('all', () => adminBalance(sql, null, dayIn(businessTimeZone)));
}
