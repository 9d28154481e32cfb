/**
 * Support's text search over every status (the support grid with Status "All"): what its count and the page the
 * service reads cost at 200,000 charges on 5,000 members (by default), about half of whose names have an accent:
 * - "members": the lookup of the members each word finds (memberMatches), before the charges' statements;
 * - "count": the count with those members' ids, which the trigram indexes serve (kernel migration 0012, billing 0011);
 * - "in-stmt": the same count with the members looked up inside it (a hashed subplan), as before the fifty-ninth pass,
 *   which reads every charge;
 * - "afresh" (with --afresh): the count folding every charge's text as it reads it (before billing's migration 0010).
 * PGlite in memory, and with DATABASE_URL also PostgreSQL (the members and charges it adds are deleted after).
 * A diagnostic (no budget; a support step has the workload's 200 ms):
 *   node --import tsx scripts/bench/support-search.ts [--rounds 5] [--charges 200000] [--members 5000] [--afresh] [--no-pglite]
 */
import { allWordsSql, type SqlClient, searchWords, sqlParams } from '@portal/server';
import { memberMatches, sortsItsMatches, supportPage } from '../../plugins/billing/src/server/support-queries';
import type { TransactionSearch } from '../../plugins/billing/src/service';
import { median, option } from './lib';

const rounds = Number(option('rounds', '5'));
const charges = Number(option('charges', '200000'));
const MEMBERS = Number(option('members', '5000'));
const afresh = process.argv.includes('--afresh');
const pglite = !process.argv.includes('--no-pglite');
const FIRST = ['Ada', 'José', 'Łukasz', 'Maria', 'John', 'Søren', 'Anne', 'Li', 'Omar', 'Zoë', 'Pat', 'Kim'];
const LAST = ['Núñez', 'Smith', 'Strauß', 'Garcia', 'Nguyen', 'Okafor', 'Brown', 'Müller', 'Khan', 'Rossi', 'Ivanova', 'Lee', 'Patel'];
/** A member's last name, a word of the descriptions, a gateway id, a PA number, a member's e-mail, a name pair, nothing. */
const SEARCHES = ['nunez', 'prescription', '1000123', 'PA-1000', 'm4321@bench.example', 'maria garcia', 'zzz'];
const SORTS: TransactionSearch['sortColumn'][] = ['DateCreated', 'MemberName'];
/** The text the search looked in before migration 0010, folded for every charge as it is read. */
const AFRESH_TEXT = `concat_ws(' ', t.id, t.gateway_trans_id, t.pa_number, t.description, t.status, m.first_name, m.last_name, m.member_number, m.email)`;

type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

async function timed(query: Query, sql: string, params: unknown[]): Promise<number> {
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    await query(sql, params);
    ms.push(performance.now() - start);
  }
  return median(ms);
}

async function measure(engine: string, sql: SqlClient): Promise<void> {
  const query: Query = (text, params) => sql.query(text, params);
  const [{ first } = { first: 0 }] = (await query(
    `WITH added AS (INSERT INTO members (member_number, brand, first_name, last_name, email)
     SELECT 'SB' || lpad(g::text, 7, '0'), 'card', ($1::text[])[1 + g % 12], ($2::text[])[1 + (g / 12) % 13] || CASE WHEN g % 3 = 0 THEN '' ELSE g::text END,
       'm' || g || '@bench.example'
     FROM generate_series(1, ${MEMBERS}) g RETURNING member_id) SELECT min(member_id) AS first FROM added`,
    [FIRST, LAST],
  )) as { first: number }[];
  try {
    const seeding = performance.now();
    await query(
      `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, pa_number, message, created_at, gateway_trans_id)
       SELECT $1::int + g % ${MEMBERS}, 'charge', coalesce((ARRAY['Declined', 'Pending', 'Authorized', 'Refunded', 'Voided'])[g % 30], 'Charged'),
         (g % 97) * 100, (ARRAY['Membership fee', 'Monthly subscription', 'Prescription balance', 'Reimbursement pull'])[1 + g % 4],
         CASE WHEN g % 50 = 0 THEN 'PA-' || g END, 'Bench', now() - g * interval '1 minute', 1000000 + g
       FROM generate_series(1, ${charges}) g`,
      [first],
    );
    await query('ANALYZE members');
    await query('ANALYZE billing_transactions');
    console.log(
      `${engine}: ${charges.toLocaleString('en-US')} charges on ${MEMBERS.toLocaleString('en-US')} members, seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; median of ${rounds}`,
    );
    console.log(`  ${'search'.padEnd(20)} ${'sort'.padEnd(11)} ${'found'.padStart(6)} members  count in-stmt   walk sorted taken${afresh ? '  afresh' : ''}`);
    for (const text of SEARCHES) {
      for (const sortColumn of SORTS) {
        const q: TransactionSearch = { statuses: [], search: text, memberId: null, sortColumn, sortOrder: 'DESC', offset: 0, limit: 25 };
        const membersMs: number[] = [];
        let members = await memberMatches(sql, text);
        for (let r = 0; r < rounds; r++) {
          const start = performance.now();
          members = await memberMatches(sql, text);
          membersMs.push(performance.now() - start);
        }
        const { count, page, fewPage } = supportPage(q, members);
        const inStatement = supportPage(q).count;
        const [{ n } = { n: 0 }] = (await query(count.sql, count.params)) as { n: number }[];
        const few = sortsItsMatches(n, q, members);
        const countMs = await timed(query, count.sql, count.params);
        const inStatementMs = sortColumn === 'DateCreated' ? await timed(query, inStatement.sql, inStatement.params) : null;
        // Both ways of reading the page (supportSearch takes the one sortsItsMatches says), to see the rule's choice.
        const walkMs = n ? await timed(query, page.sql, page.params) : 0;
        const sortedMs = n ? await timed(query, fewPage.sql, fewPage.params) : 0;
        const params: unknown[] = [];
        const afreshSql = `SELECT count(*)::int FROM billing_transactions t JOIN members m ON m.member_id = t.member_id
          WHERE t.kind IN ('subscription', 'charge', 'authorize', 'prepull') AND ${allWordsSql(AFRESH_TEXT, searchWords(text), sqlParams(params))}`;
        const afreshMs = afresh && sortColumn === 'DateCreated' ? await timed(query, afreshSql, params) : null;
        const cell = (ms: number | null, width: number) => (ms === null ? '' : ms.toFixed(0)).padStart(width);
        console.log(
          `  ${text.padEnd(20)} ${sortColumn.padEnd(11)} ${String(n).padStart(6)} ${cell(median(membersMs), 7)} ${cell(countMs, 6)} ${cell(inStatementMs, 7)} ${cell(walkMs, 6)} ${cell(sortedMs, 6)} ${(n ? (few ? 'sorted' : 'walk') : '-').padEnd(6)}${afresh ? cell(afreshMs, 8) : ''}`,
        );
      }
    }
  } finally {
    await query(`DELETE FROM billing_transactions WHERE message = 'Bench' AND member_id >= $1 AND member_id < $1 + ${MEMBERS}`, [first]);
    await query(`DELETE FROM members WHERE member_number LIKE 'SB%' AND member_id >= $1 AND member_id < $1 + ${MEMBERS}`, [first]);
  }
}

const { createServer } = await import('@portal/app-server/server');
if (pglite) {
  const lite = await createServer({ dataDir: null, databaseUrl: null }, { logger: false, workJobs: false });
  try {
    await measure('PGlite', lite.database.sql);
  } finally {
    await lite.close();
  }
}
if (process.env.DATABASE_URL) {
  const server = await createServer({ dataDir: null, databaseUrl: process.env.DATABASE_URL }, { logger: false, workJobs: false });
  try {
    await measure('PostgreSQL', server.database.sql);
  } finally {
    await server.close();
  }
}
