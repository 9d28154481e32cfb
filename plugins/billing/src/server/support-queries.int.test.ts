import type { StartedServer } from '@portal/app-server/server';
import type { SqlClient } from '@portal/server';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionExport, TransactionSearch } from '../service';
import { reversalOf, type Statement, sortsItsMatches, supportBatch, supportBatches, supportPage, supportSearch, supportStatusCounts } from './support-queries';

/**
 * Support's reads of every member's charges at more than one batch: the export's keyset batches hold the grid's rows
 * in the grid's order, whatever the sort, and the work queue, the grid and a refund's lookup read through the indexes
 * of migration 0005 instead of the whole table. The statements are the ones the billing service runs.
 */
let server: StartedServer & { dropDatabase(): Promise<void> };
/** The seeded charges' ids, in insertion order. */
let seeded: number[];

const SORTS: TransactionSearch['sortColumn'][] = ['DateCreated', 'Amount', 'Status', 'TransactionID', 'MemberName'];
const search = (over: Partial<TransactionSearch> = {}): TransactionSearch => ({
  statuses: [],
  search: null,
  memberId: null,
  sortColumn: 'DateCreated',
  sortOrder: 'DESC',
  offset: 0,
  limit: 100_000,
  ...over,
});
/** Every row the grid's search finds, in its order: one page as large as the table. */
const gridIds = async (q: TransactionSearch) => {
  const { page } = supportPage(q);
  return (await server.database.sql.query<{ id: number }>(page.sql, page.params)).map((r) => r.id);
};
/** Every row of the export's batches, in the order they come. */
const exportIds = async (q: TransactionSearch, ids: number[] | null = null, batchSize = 64) => {
  const { offset: _offset, limit: _limit, ...rest } = q;
  const query: TransactionExport = { ...rest, ids, batchSize };
  const out: number[] = [];
  let batches = 0;
  for await (const rows of supportBatches<{ id: number }>(server.database.sql, query)) {
    expect(rows.length).toBeLessThanOrEqual(batchSize);
    out.push(...rows.map((r) => r.id));
    batches++;
  }
  return { ids: out, batches };
};

beforeAll(async () => {
  server = await startTestServer();
  const members: number[] = [];
  for (const [userName, first, last] of [
    ['keyset-ada', 'Ada', 'Zeta'],
    ['keyset-bo', 'Bo', 'Alpha'],
    ['keyset-cy', 'Cy', 'Alpha'],
  ] as const) {
    const id = (await makeUser(server, { userName, roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    await server.database.sql.query('UPDATE members SET first_name = $2, last_name = $3 WHERE member_id = $1', [id, first, last]);
    members.push(id);
  }
  // 1,200 charges: three at each time (a time with microseconds), seven amounts, every status but mostly Charged (held,
  // declined and authorized charges are a few in a hundred, as in production), some with a PA number, and a refund
  // record behind every tenth, which support's lists leave out. Analyzed, so the plans are the ones of such a table.
  seeded = (
    await server.database.sql.query<{ id: number }>(
      `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, pa_number, message, created_at)
       SELECT ($1::int[])[1 + g % 3], CASE WHEN g % 10 = 0 THEN 'refund' ELSE 'charge' END,
         coalesce((ARRAY['Declined', 'Pending', 'Authorized', 'Refunded', 'Refunded', 'Voided'])[g % 40], 'Charged'), (g % 7) * 100, 'Seeded ' || g,
         CASE WHEN g % 5 = 0 THEN 'PA-' || g END, 'Seeded', timestamptz '2024-03-01 00:00:00.123457+00' + (g / 3) * interval '1 minute'
       FROM generate_series(1, 1200) g
       RETURNING id`,
      [members],
    )
  ).map((r) => r.id);
  await server.database.sql.query('ANALYZE billing_transactions');
});
afterAll(async () => {
  await server?.close();
});

describe("billing: support's export reads in keyset batches", () => {
  it('holds every row of the grid once, in the grid’s order, for every sort either way (ties and microseconds across batches)', async () => {
    for (const sortColumn of SORTS) {
      for (const sortOrder of ['ASC', 'DESC'] as const) {
        const q = search({ sortColumn, sortOrder });
        const grid = await gridIds(q);
        expect(grid.length).toBe(1080);
        const exported = await exportIds(q);
        expect(exported.ids, `${sortColumn} ${sortOrder}`).toEqual(grid);
        expect(exported.batches).toBe(Math.ceil(1080 / 64));
      }
    }
  });

  it('keeps the grid’s filters: statuses, PA Number, the text search and a member', async () => {
    const memberId = (await server.database.sql.query<{ member_id: number }>("SELECT member_id FROM members WHERE first_name = 'Bo'"))[0]?.member_id ?? 0;
    for (const over of [
      { statuses: ['Declined'] },
      { statuses: ['PA Number'], sortColumn: 'Amount' as const, sortOrder: 'ASC' as const },
      { search: 'alpha', sortColumn: 'MemberName' as const },
      { memberId, sortColumn: 'Status' as const },
    ]) {
      const q = search(over);
      const grid = await gridIds(q);
      expect(grid.length).toBeGreaterThan(2 * 8);
      expect((await exportIds(q, null, 8)).ids).toEqual(grid);
    }
  });

  it('reads only the given ids, narrowed in SQL: full batches of them, in the grid’s order', async () => {
    const chosen = seeded.filter((_, i) => i % 3 === 0);
    const q = search({ sortColumn: 'Amount', sortOrder: 'DESC' });
    const wanted = new Set(chosen);
    const expected = (await gridIds(q)).filter((id) => wanted.has(id));
    expect(expected.length).toBeGreaterThan(64 * 4);
    // Each batch holds 64 of the ids (a filter after the read would leave about a third of each batch of the table).
    expect(await exportIds(q, chosen)).toEqual({ ids: expected, batches: Math.ceil(expected.length / 64) });
    const exact = expected.slice(0, 128);
    expect(await exportIds(q, exact)).toEqual({ ids: exact, batches: 2 });
  });
});

describe('billing: a support search that finds few charges sorts its matches', () => {
  const ids = async (s: Statement) => (await server.database.sql.query<{ id: number }>(s.sql, s.params)).map((r) => r.id);

  it('reads the same page either way, for every sort either way, filtered, searched and deep', async () => {
    for (const sortColumn of SORTS) {
      for (const sortOrder of ['ASC', 'DESC'] as const) {
        for (const over of [{}, { statuses: ['Declined', 'PA Number'] }, { search: 'alpha' }, { search: 'zeta', offset: 300 }]) {
          const { page, fewPage } = supportPage(search({ sortColumn, sortOrder, limit: 40, offset: 20, ...over }));
          const expected = await ids(page);
          expect(expected.length, `${sortColumn} ${sortOrder} ${JSON.stringify(over)}`).toBe(40);
          expect(await ids(fewPage), `${sortColumn} ${sortOrder} ${JSON.stringify(over)}`).toEqual(expected);
        }
      }
    }
  });

  it('sorts the matches when the search finds fewer than twice the page’s end and at most 5,000, and walks the order otherwise', () => {
    const at = (offset: number) => ({ offset, limit: 25, sortColumn: 'DateCreated' as const, search: 'alpha' });
    expect(sortsItsMatches(40, at(0))).toBe(true);
    expect(sortsItsMatches(49, at(0))).toBe(true);
    expect(sortsItsMatches(50, at(0))).toBe(false);
    expect(sortsItsMatches(280, at(0))).toBe(false);
    expect(sortsItsMatches(4_999, at(4_975))).toBe(true);
    expect(sortsItsMatches(9_000, at(8_975))).toBe(false);
  });

  it('sorts at most 5,000 matches of a text search under the member-name sort, which find them together in that order', () => {
    const byName = (search: string | null) => ({ offset: 0, limit: 25, sortColumn: 'MemberName' as const, search });
    expect(sortsItsMatches(1_280, byName('maria garcia'))).toBe(true);
    expect(sortsItsMatches(5_000, byName('garcia'))).toBe(true);
    expect(sortsItsMatches(5_001, byName('garcia'))).toBe(false);
    // No text (a status filter, every charge) spreads over the names: the walk holds the page soon.
    expect(sortsItsMatches(1_280, byName(null))).toBe(false);
    expect(sortsItsMatches(1_280, byName(' , '))).toBe(false);
    expect(sortsItsMatches(1_280, { ...byName('garcia'), sortColumn: 'Amount' })).toBe(false);
  });

  it('sorts up to 100,000 matches under the member-name sort when a word names members, whose charges sit together', () => {
    const byName = (search: string) => ({ offset: 0, limit: 25, sortColumn: 'MemberName' as const, search });
    const named = new Map([['nunez', [7, 9]]]);
    expect(sortsItsMatches(77_900, byName('nunez'), named)).toBe(true);
    expect(sortsItsMatches(100_000, byName('nunez'), named)).toBe(true);
    expect(sortsItsMatches(100_001, byName('nunez'), named)).toBe(false);
    expect(sortsItsMatches(77_900, byName('nunez prescription'), new Map([...named, ['prescription', []]]))).toBe(true);
    // A word no member holds, or too many members (no list): the matches may spread over the names.
    expect(sortsItsMatches(77_900, byName('prescription'), new Map([['prescription', []]]))).toBe(false);
    expect(sortsItsMatches(77_900, byName('example'), new Map([['example', null]]))).toBe(false);
    expect(sortsItsMatches(77_900, byName('nunez'))).toBe(false);
    expect(sortsItsMatches(77_900, { ...byName('nunez'), sortColumn: 'DateCreated' }, named)).toBe(false);
  });

  it('answers a narrow search by its count and the sorted matches, a broad one by its count and the walk, with the same rows', async () => {
    const statements: string[] = [];
    const sql = server.database.sql;
    const reader: SqlClient = {
      query: <R>(text: string, params?: unknown[]) => {
        statements.push(text);
        return sql.query<R>(text, params);
      },
      transaction: (fn) => sql.transaction(fn),
      exec: (text) => sql.exec(text),
    };
    const narrow = search({ search: 'zeta', sortColumn: 'MemberName', sortOrder: 'ASC', limit: 25, offset: 200 });
    const narrowPage = await supportSearch<{ id: number }>(server.database.sql, reader, narrow);
    expect(narrowPage.total).toBe(360);
    expect(narrowPage.rows.map((r) => r.id)).toEqual(await ids(supportPage(narrow).page));
    // The members the text finds (memberMatches), the count, the sorted matches.
    expect(statements.map((t) => t.trimStart().slice(0, 20))).toEqual(['SELECT 0 AS i, ARRAY', 'SELECT count(*)::int', 'WITH hits AS MATERIA']);
    statements.length = 0;
    const broad = search({ sortColumn: 'MemberName', limit: 25 });
    expect((await supportSearch<{ id: number }>(server.database.sql, reader, broad)).rows.map((r) => r.id)).toEqual(await ids(supportPage(broad).page));
    expect(statements.map((t) => t.trimStart().slice(0, 20))).toEqual(['SELECT count(*)::int', 'SELECT t.*, c.custom']);
  });
});

describe("billing: the indexes of support's reads (migration 0005)", () => {
  it('creates the open-charges, date and refund-reference indexes', async () => {
    const rows = await server.database.sql.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'billing_transactions'
         AND indexname IN ('billing_transactions_open_idx', 'billing_transactions_created_idx', 'billing_transactions_ref_idx') ORDER BY indexname`,
    );
    expect(rows.map((r) => r.indexname)).toEqual(['billing_transactions_created_idx', 'billing_transactions_open_idx', 'billing_transactions_ref_idx']);
    expect(rows[0]?.indexdef).toMatch(/USING btree \(created_at DESC, id DESC\)$/);
    expect(rows[1]?.indexdef).toMatch(
      /USING btree \(status, created_at DESC, id DESC\) WHERE \(status = ANY \(ARRAY\['Pending'::text, 'Declined'::text, 'Authorized'::text\]\)\)$/,
    );
    expect(rows[2]?.indexdef).toMatch(/USING btree \(ref_transaction_id\) WHERE \(ref_transaction_id IS NOT NULL\)$/);
  });

  it('answers the work queue, the grid’s open lists, the date order, the export’s next batch and a refund’s lookup from them', async () => {
    const plans = await server.database.sql.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const plan = async (s: Statement) => (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params)).map((r) => r['QUERY PLAN']).join('\n');
      const declined = supportPage(search({ statuses: ['Declined'], limit: 20 }));
      const all = supportPage(search({ limit: 20 }));
      const last = seeded[600] ?? 0;
      const key = (await tx.query<{ key: string }>('SELECT created_at::text AS key FROM billing_transactions WHERE id = $1', [last]))[0]?.key ?? '';
      const nextBatch = (sortOrder: 'ASC' | 'DESC') => plan(supportBatch({ ...search({ sortOrder }), ids: null, batchSize: 500 }, { keys: [key], id: last }));
      return {
        queue: await plan(supportStatusCounts(['Pending', 'Declined', 'Authorized'])),
        declinedPage: await plan(declined.page),
        declinedCount: await plan(declined.count),
        pendingPage: await plan(supportPage(search({ statuses: ['Pending'], limit: 20 })).page),
        allPage: await plan(all.page),
        oldestFirst: await plan(supportPage(search({ sortOrder: 'ASC', limit: 20 })).page),
        nextBatchDesc: await nextBatch('DESC'),
        nextBatchAsc: await nextBatch('ASC'),
        refund: await plan(reversalOf(last, 'refund')),
      };
    });
    expect(plans.queue).toContain('billing_transactions_open_idx');
    expect(plans.declinedPage).toContain('billing_transactions_open_idx');
    expect(plans.declinedCount).toContain('billing_transactions_open_idx');
    expect(plans.pendingPage).toContain('billing_transactions_open_idx');
    expect(plans.allPage).toContain('billing_transactions_created_idx');
    expect(plans.oldestFirst).toContain('billing_transactions_created_idx');
    // The next batch starts inside the index at the last row's (created_at, id), in either direction.
    for (const p of [plans.nextBatchDesc, plans.nextBatchAsc]) {
      expect(p).toMatch(/Index Scan (Backward )?(using|on) billing_transactions_created_idx/);
      expect(p).toMatch(/Index Cond: \(ROW\((t\.)?created_at, (t\.)?id\) [<>] ROW\('[^']*\.123457/);
    }
    expect(plans.refund).toContain('billing_transactions_ref_idx');
  });

  it('reads a page and an export batch sorted by member name in the order of the members’ name index, each member’s charges through theirs, not by sorting every charge', async () => {
    const plans = await server.database.sql.transaction(async (tx) => {
      // With sorting every row priced out, a plan still sorts everything unless an index gives the order's leading keys.
      await tx.query('SET LOCAL enable_seqscan = off');
      await tx.query('SET LOCAL enable_sort = off');
      const plan = async (s: Statement) => (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params)).map((r) => r['QUERY PLAN']).join('\n');
      const last = seeded[600] ?? 0;
      const [keys] = await tx.query<{ last: string; first: string }>(
        'SELECT lower(m.last_name) AS last, lower(m.first_name) AS first FROM billing_transactions t JOIN members m USING (member_id) WHERE t.id = $1',
        [last],
      );
      return {
        asc: await plan(supportPage(search({ sortColumn: 'MemberName', sortOrder: 'ASC', limit: 20 })).page),
        desc: await plan(supportPage(search({ sortColumn: 'MemberName', offset: 40, limit: 20 })).page),
        batch: await plan(
          supportBatch({ ...search({ sortColumn: 'MemberName' }), ids: null, batchSize: 500 }, { keys: [keys?.last ?? '', keys?.first ?? ''], id: last }),
        ),
      };
    });
    for (const p of [plans.asc, plans.desc, plans.batch]) {
      expect(p).toMatch(/Index Scan (Backward )?using members_name_idx/);
      expect(p).toContain('billing_transactions_member_idx');
      expect(p).toMatch(/Presorted Key: \(lower\(m\.last_name\)\), \(lower\(m\.first_name\)\)/);
      expect(p).not.toMatch(/(^|->)\s*Sort\s+\(/m);
    }
  });

  it('reads a page and an export batch sorted by Amount or by Status in the order of their indexes (migration 0006), not by sorting every charge', async () => {
    const rows = await server.database.sql.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'billing_transactions'
         AND indexname IN ('billing_transactions_amount_idx', 'billing_transactions_status_idx') ORDER BY indexname`,
    );
    expect(rows.map((r) => r.indexdef.replace(/^.* USING /, ''))).toEqual(['btree (amount_cents, id)', 'btree (status, id)']);
    const plans = await server.database.sql.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const plan = async (s: Statement) => (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params)).map((r) => r['QUERY PLAN']).join('\n');
      const last = seeded[600] ?? 0;
      const amount = (await tx.query<{ key: string }>('SELECT amount_cents::text AS key FROM billing_transactions WHERE id = $1', [last]))[0]?.key ?? '';
      return {
        amountDesc: await plan(supportPage(search({ sortColumn: 'Amount', limit: 20 })).page),
        amountAsc: await plan(supportPage(search({ sortColumn: 'Amount', sortOrder: 'ASC', offset: 40, limit: 20 })).page),
        status: await plan(supportPage(search({ sortColumn: 'Status', limit: 20 })).page),
        amountBatch: await plan(supportBatch({ ...search({ sortColumn: 'Amount' }), ids: null, batchSize: 500 }, { keys: [amount], id: last })),
      };
    });
    for (const p of [plans.amountDesc, plans.amountAsc, plans.amountBatch]) {
      expect(p).toMatch(/Index Scan (Backward )?(using|on) billing_transactions_amount_idx/);
      expect(p).not.toMatch(/Sort Key/);
    }
    expect(plans.amountBatch).toMatch(/Index Cond: \(ROW\((t\.)?amount_cents, (t\.)?id\) [<>] ROW/);
    expect(plans.status).toMatch(/Index Scan (Backward )?(using|on) billing_transactions_status_idx/);
    expect(plans.status).not.toMatch(/Sort Key/);
  });
});
