import type { SqlClient } from '@portal/server';
import { TransactionType } from '../contract';
import type { BankLedgerRow, LedgerPeriod, LedgerService } from '../service';
import { LEDGER_ROWS, typeName } from './repo';

const signed = `CASE WHEN transaction_type_id = ${TransactionType.Expense} THEN -amount_cents ELSE amount_cents END`;

/**
 * The ledger's read service: the same rows and the same running balance as the ledger's own views. `balanceChanged`
 * runs once after a posting of bank rows that added any has committed (the server plugin passes the low-balance rule,
 * `systemLowBalanceCheck`); it must not throw, the posting stands whatever it does.
 */
export function makeLedgerService(sql: SqlClient, balanceChanged?: (memberId: number) => Promise<void>): LedgerService {
  return {
    async period(memberId, from, to): Promise<LedgerPeriod> {
      // One statement, so one snapshot: the initial balance, the sum of the rows before `from` (the opening) and the
      // period's rows are read together. Read in two statements (READ COMMITTED), a row's date moved across `from` by an
      // edit committed between them counted twice (in the opening and among the rows) or not at all, and the closing
      // balance of a document rendered or frozen then was wrong. The head is one row, joined to the period's rows (none:
      // one row of nulls), so it comes back whatever the period holds.
      const read = await sql.query<{
        initial: number | null;
        before: number;
        transaction_id: number | null;
        day: string | null;
        code: string | null;
        company: string | null;
        description: string | null;
        transaction_type_id: number | null;
        signed_cents: number | null;
      }>(
        `SELECT head.initial, head.before, r.transaction_id, r.day, r.code, r.company, r.description, r.transaction_type_id, r.signed_cents
         FROM (SELECT (SELECT initial_balance_cents::float8 FROM ledger_accounts WHERE member_id = $1) AS initial,
                 COALESCE((SELECT sum(${signed}) FROM ledger_transactions WHERE member_id = $1 AND ${LEDGER_ROWS} AND $2::date IS NOT NULL AND date_created < $2::date), 0)::float8 AS before) head
         LEFT JOIN (
           SELECT transaction_id, date_created, to_char(date_created, 'YYYY-MM-DD') AS day, code, company, description, transaction_type_id, (${signed})::float8 AS signed_cents
           FROM ledger_transactions
           WHERE member_id = $1 AND ${LEDGER_ROWS} AND ($2::date IS NULL OR date_created >= $2::date) AND ($3::date IS NULL OR date_created <= $3::date)
         ) r ON true
         ORDER BY r.date_created, r.transaction_id`,
        [memberId, from, to],
      );
      const head = read[0];
      const initialCents = head?.initial === null || head?.initial === undefined ? null : Number(head.initial);
      const openingCents = (initialCents ?? 0) + Number(head?.before ?? 0);
      const rows = read.filter(
        (r): r is typeof r & { transaction_id: number; day: string; transaction_type_id: number; signed_cents: number } => r.transaction_id !== null,
      );
      let balance = openingCents;
      const entries = rows.map((r) => {
        balance += Number(r.signed_cents);
        return {
          id: r.transaction_id,
          date: r.day,
          code: r.code,
          company: r.company,
          description: r.description,
          typeId: r.transaction_type_id,
          typeName: typeName(r.transaction_type_id),
          signedCents: Number(r.signed_cents),
          balanceCents: balance,
        };
      });
      return { initialCents, openingCents, closingCents: balance, rows: entries };
    },
    async span(memberId) {
      const row = (
        await sql.query<{ first: string | null; last: string | null }>(
          `SELECT to_char(min(date_created), 'YYYY-MM-DD') AS first, to_char(max(date_created), 'YYYY-MM-DD') AS last FROM ledger_transactions WHERE member_id = $1 AND ${LEDGER_ROWS}`,
          [memberId],
        )
      )[0];
      return row?.first && row.last ? { first: row.first, last: row.last } : null;
    },
    async changeMark(memberId) {
      // ledger_changes' counter (migration 0007, kept by triggers on ledger_transactions) and the initial balance.
      const row = (
        await sql.query<{ mark: string }>(
          `SELECT COALESCE((SELECT seq FROM ledger_changes WHERE member_id = $1), 0)::text || ':' ||
             COALESCE((SELECT initial_balance_cents FROM ledger_accounts WHERE member_id = $1)::text, '-') AS mark`,
          [memberId],
        )
      )[0];
      return row?.mark ?? '0:-';
    },
    async postBankTransactions(memberId, rows, caller) {
      if (!rows.length) return 0;
      // In the caller's transaction when given one (the banking sync passes the one that mirrors the rows, so the bank's
      // tables and the ledger commit together); the low-balance rule is then the caller's to run after its commit.
      const post = async (tx: SqlClient) => {
        await tx.query('INSERT INTO ledger_accounts (member_id) VALUES ($1) ON CONFLICT (member_id) DO NOTHING', [memberId]);
        // Every row in one statement, each new one with its history row (a sync posts up to 500; rows already posted,
        // by their bank reference, are left as they are). A reference sent twice is posted once.
        const byRef = new Map<string, BankLedgerRow>();
        for (const r of rows) if (!byRef.has(r.ref)) byRef.set(r.ref, r);
        const once = [...byRef.values()];
        const inserted = await tx.query<{ n: number }>(
          `WITH input AS (
             SELECT * FROM unnest($2::date[], $3::text[], $4::text[], $5::smallint[], $6::bigint[], $7::text[], $8::jsonb[])
               AS t(day, company, description, type, cents, ref, after)),
           added AS (
             INSERT INTO ledger_transactions (member_id, source, status, date_created, company, description, transaction_type_id, amount_cents, external_ref)
             SELECT $1, 'bank', 'Posted', day, company, description, type, cents, ref FROM input
             ON CONFLICT (member_id, source, external_ref) WHERE external_ref IS NOT NULL DO NOTHING
             RETURNING transaction_id, external_ref),
           history AS (
             INSERT INTO ledger_history (transaction_id, member_id, action, before, after)
             SELECT added.transaction_id, $1, 'create', NULL, input.after FROM added JOIN input ON input.ref = added.external_ref
             RETURNING 1)
           SELECT (SELECT count(*)::int FROM added) AS n, (SELECT count(*) FROM history) AS written`,
          [
            memberId,
            once.map((r) => r.date),
            once.map((r) => r.company),
            once.map((r) => r.description),
            once.map((r) => (r.signedCents < 0 ? TransactionType.Expense : TransactionType.Deposit)),
            once.map((r) => Math.abs(Math.round(r.signedCents))),
            once.map((r) => r.ref),
            once.map((r) =>
              JSON.stringify({ source: 'bank', ref: r.ref, date: r.date, company: r.company, description: r.description, signedCents: r.signedCents }),
            ),
          ],
        );
        return inserted[0]?.n ?? 0;
      };
      if (caller) return post(caller);
      const added = await sql.transaction(post);
      // The new rows moved the balance the low-balance rule reads (loadBalance counts every posted row dated up to the
      // business's today, bank rows too; a row dated later counts from its day, when the hourly due-rows run checks it):
      // the rule runs once for the whole posting, after its commit.
      if (added > 0) await balanceChanged?.(memberId);
      return added;
    },
    async afterBankPosting(memberId) {
      await balanceChanged?.(memberId);
    },
    async withdrawBankTransactions(memberId, refs, caller) {
      if (!refs.length) return 0;
      // In the caller's transaction when given one (no nested transaction: its commit or rollback is this one's too).
      const withdraw = async (tx: SqlClient) => {
        // report_id is set on rows reported and on rows a send holds while it waits for the payer: both stay.
        const gone = await tx.query<{ transaction_id: number; external_ref: string }>(
          `DELETE FROM ledger_transactions WHERE member_id = $1 AND source = 'bank' AND report_id IS NULL AND external_ref = ANY($2::text[])
           RETURNING transaction_id, external_ref`,
          [memberId, [...refs]],
        );
        for (const g of gone) {
          await tx.query("INSERT INTO ledger_history (transaction_id, member_id, action, before, after) VALUES ($1, $2, 'delete', $3, NULL)", [
            g.transaction_id,
            memberId,
            JSON.stringify({ source: 'bank', ref: g.external_ref, reason: 'bank unlinked' }),
          ]);
        }
        return gone.length;
      };
      return caller ? withdraw(caller) : sql.transaction(withdraw);
    },
  };
}
