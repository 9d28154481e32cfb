import type { StartedServer } from '@portal/app-server/server';
import type { SqlClient } from '@portal/server';
import { makeUser, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TransactionSearch } from '../service';
import { MEMBER_IDS_MAX, memberMatches, supportPage, supportSearch } from './support-queries';

/**
 * Support's grid of every member's charges: one page and the number of charges the search finds, the total of a broad
 * search kept a while (the kernel's KeptCounts) so that paging through it does not count every charge again.
 */
let server: StartedServer;

const search = (over: Partial<TransactionSearch> = {}): TransactionSearch => ({
  statuses: [],
  search: null,
  memberId: null,
  sortColumn: 'DateCreated',
  sortOrder: 'DESC',
  offset: 0,
  limit: 20,
  ...over,
});

/** A reader of its own database handle (so nothing is kept for it yet) that notes each statement it runs. */
function recording() {
  const texts: string[] = [];
  const reader: SqlClient = {
    query: async (text, params, opts) => {
      texts.push(text);
      return server.database.sql.query(text, params, opts);
    },
    exec: (text) => server.database.sql.exec(text),
    transaction: (fn) => server.database.sql.transaction(fn),
  };
  return { reader, counted: () => texts.filter((t) => t.includes('count(*)')).length, statements: () => texts.length };
}

/** What the grid's two plain statements say: the page's ids and the count. */
async function expected(q: TransactionSearch) {
  const { count, page } = supportPage(q);
  const ids = (await server.database.sql.query<{ id: number }>(page.sql, page.params)).map((r) => r.id);
  const total = (await server.database.sql.query<{ n: number }>(count.sql, count.params))[0]?.n ?? 0;
  return { ids, total };
}

beforeAll(async () => {
  server = await startTestServer();
  const member = (await makeUser(server, { userName: 'support-search', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
  // 6,000 charges: every tenth Declined, every hundredth with a PA number.
  await server.database.sql.query(
    `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, pa_number, message, created_at)
     SELECT $1, 'charge', CASE WHEN g % 10 = 0 THEN 'Declined' ELSE 'Charged' END, (g % 13) * 100, 'Search ' || g,
       CASE WHEN g % 100 = 0 THEN 'PA-' || g END, 'Seeded', timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute'
     FROM generate_series(1, 6000) g`,
    [member],
  );
});
afterAll(async () => {
  await server?.close();
});

describe("support's grid: a page and its total", () => {
  it('answers the rows and the total the plain page and count statements give, for filters, sorts and pages', async () => {
    for (const q of [
      search(),
      search({ statuses: ['Declined'], offset: 40 }),
      search({ statuses: ['PA Number'], sortColumn: 'Amount', sortOrder: 'ASC' }),
      search({ search: 'search 59', sortColumn: 'TransactionID', offset: 5, limit: 10 }),
      search({ statuses: ['Refunded'] }),
    ]) {
      const { reader } = recording();
      const got = await supportSearch<{ id: number }>(reader, reader, q);
      const want = await expected(q);
      expect(got.rows.map((r) => r.id)).toEqual(want.ids);
      expect(got.total).toBe(want.total);
    }
  });

  it('reads no page past the end, or of an empty search: the count alone answers (after the members a text finds)', async () => {
    const past = recording();
    const q = search({ statuses: ['Declined'], offset: 10_000 });
    const got = await supportSearch<{ id: number }>(past.reader, past.reader, q);
    expect(got).toEqual({ rows: [], total: (await expected(q)).total });
    expect(got.total).toBe(600);
    expect(past.statements()).toBe(1);
    const none = recording();
    expect(await supportSearch(none.reader, none.reader, search({ search: 'no such charge' }))).toEqual({ rows: [], total: 0 });
    expect(none.statements()).toBe(2);
    expect(none.counted()).toBe(1);
  });

  it('keeps a total of 5,000 charges or more for 30 s: paging through it reads each page and counts once', async () => {
    const { reader, counted, statements } = recording();
    const pages = [];
    for (let page = 0; page < 4; page++) pages.push(await supportSearch<{ id: number }>(reader, reader, search({ offset: page * 20 })));
    expect(pages.map((p) => p.total)).toEqual([6000, 6000, 6000, 6000]);
    expect(new Set(pages.flatMap((p) => p.rows.map((r) => r.id))).size).toBe(80);
    expect(counted()).toBe(1);
    expect(statements()).toBe(5);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 30_001);
    try {
      await supportSearch(reader, reader, search({ offset: 100 }));
      expect(counted()).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });

  it('counts a smaller result with every page, so it is always exact', async () => {
    const { reader, counted } = recording();
    const declined = async (offset: number) => (await supportSearch(reader, reader, search({ statuses: ['Declined'], offset }))).total;
    expect(await declined(0)).toBe(600);
    await server.database.sql.query(
      `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, message)
       SELECT member_id, 'charge', 'Declined', 100, 'Added' FROM billing_transactions LIMIT 1`,
    );
    expect(await declined(20)).toBe(601);
    expect(counted()).toBe(2);
    await server.database.sql.query(`DELETE FROM billing_transactions WHERE message = 'Added'`);
  });

  it('counts once for eight identical broad searches arriving together, each with its own page', async () => {
    const { reader, counted } = recording();
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => supportSearch<{ id: number }>(reader, reader, search({ offset: (i % 4) * 20 }))));
    expect(counted()).toBe(1);
    for (const [i, p] of pages.entries()) {
      expect(p.total).toBe(6000);
      expect(p.rows.map((r) => r.id)).toEqual(pages[i % 4]?.rows.map((r) => r.id));
    }
  });
});

describe("support's text search reads each charge's stored text (migration 0010)", () => {
  /** The ids the grid's page finds for `text` over every status. */
  const found = async (text: string) => (await expected(search({ search: text, limit: 100 }))).ids;
  let member: number;
  let charge: number;
  beforeAll(async () => {
    member = (await makeUser(server, { userName: 'search-text', roles: ['CareGuard'], brand: 'card', member: true })).memberId ?? 0;
    await server.database.sql.query("UPDATE members SET first_name = 'Ærø', last_name = 'Strauß-Łukasz' WHERE member_id = $1", [member]);
    charge =
      (
        await server.database.sql.query<{ id: number }>(
          `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message)
           VALUES ($1, 'charge', 'Pending', 4321, 'Reembolso farmacia Peña', 'Seeded') RETURNING id`,
          [member],
        )
      )[0]?.id ?? 0;
  });

  it('finds a charge by its folded description and id as written, and by its member’s name, a word from each', async () => {
    expect(await found('pena farmacia')).toEqual([charge]);
    expect(await found(String(charge))).toContain(charge);
    expect(await found('aero strauss lukasz')).toEqual([charge]);
    expect(await found('PEÑA strauss')).toEqual([charge]);
    expect(await found('pena nobody')).toEqual([]);
  });

  it('follows a change to the charge: found by its new gateway id, PA number, description and status, no longer by the old', async () => {
    await server.database.sql.query(
      "UPDATE billing_transactions SET gateway_trans_id = 987654321, pa_number = 'PA-Œuvre', description = 'Refund', status = 'Refunded' WHERE id = $1",
      [charge],
    );
    for (const text of ['987654321', 'pa-oeuvre', 'refund strauss', 'refunded aero']) expect(await found(text), text).toEqual([charge]);
    expect(await found('pena farmacia')).toEqual([]);
    const [row] = await server.database.sql.query<{ search_text: string }>('SELECT search_text FROM billing_transactions WHERE id = $1', [charge]);
    expect(row?.search_text).toBe(`${charge} 987654321 pa-oeuvre refund refunded`);
  });

  it('follows a change to the member’s name, which is looked up in members', async () => {
    await server.database.sql.query("UPDATE members SET last_name = 'Núñez' WHERE member_id = $1", [member]);
    expect(await found('refund nunez')).toEqual([charge]);
    expect(await found('refund strauss')).toEqual([]);
  });

  it('treats %, _ and the backslash in a word as themselves', async () => {
    const [row] = await server.database.sql.query<{ id: number }>(
      `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message)
       VALUES ($1, 'charge', 'Charged', 100, 'Tier_A 100% copay C:\\x', 'Seeded') RETURNING id`,
      [member],
    );
    const id = row?.id ?? 0;
    for (const text of ['tier_a', '100%', 'c:\\x', '0% copay']) expect(await found(text), text).toEqual([id]);
    for (const text of ['tier%', 'ti_r_a', '10_%', 'c:%x', 'copay%']) expect(await found(text), text).toEqual([]);
    await server.database.sql.query('DELETE FROM billing_transactions WHERE id = $1', [id]);
  });

  it('compares the charges’ and the members’ stored text, folding nothing; without the members’ ids, looks them up once for the whole search', async () => {
    const { count } = supportPage(search({ search: 'refund nunez' }));
    const plan = (await server.database.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${count.sql}`, count.params)).map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/hashed SubPlan/);
    // Each of the two words in the charge's text and in the members' (whose plan node names no table when it reads one).
    expect(plan.match(/~~/g)).toHaveLength(4);
    expect(plan.match(/\((t\.|sm\.)?search_text ~~ /g)).toHaveLength(4);
    expect(plan).not.toMatch(/normalize|lower\(|strpos/i);
  });
});

describe("support's text search through the trigram indexes (kernel migration 0012, billing migration 0011)", () => {
  /** The plan of a statement with sequential and whole-index scans priced out, as at a million charges, where the indexes pay. */
  const indexedPlan = (statement: { sql: string; params: unknown[] }) =>
    server.database.sql.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      await tx.query('SET LOCAL enable_indexscan = off');
      return (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.sql}`, statement.params)).map((r) => r['QUERY PLAN']).join('\n');
    });
  let members: number[];
  beforeAll(async () => {
    // MEMBER_IDS_MAX + 1 members named Quokka, the first with a charge; one named Wombat with one.
    members = (
      await server.database.sql.query<{ member_id: number }>(
        `INSERT INTO members (member_number, brand, first_name, last_name, email)
         SELECT 'TQ' || lpad(g::text, 6, '0'), 'card', 'Ann', CASE WHEN g = 0 THEN 'Wombat' ELSE 'Quokka' END, NULL
         FROM generate_series(0, ${MEMBER_IDS_MAX + 1}) g RETURNING member_id`,
      )
    ).map((r) => r.member_id);
    await server.database.sql.query(
      `INSERT INTO billing_transactions (member_id, kind, status, amount_cents, description, message)
       SELECT m, 'charge', 'Charged', 500, 'Marsupial fee', 'Seeded' FROM unnest($1::int[]) m`,
      [members.slice(0, 2)],
    );
  });

  it('lists the members a word finds, none, or null past MEMBER_IDS_MAX; an amount written as money looks up no member', async () => {
    const matches = await memberMatches(server.database.sql, 'Wombat quokka zzyzx');
    expect(matches.get('wombat')).toEqual([members[0]]);
    expect(matches.get('quokka')).toBeNull();
    expect(matches.get('zzyzx')).toEqual([]);
    expect((await memberMatches(server.database.sql, '$5.00')).size).toBe(0);
    expect((await memberMatches(server.database.sql, null)).size).toBe(0);
  });

  it('finds the same charges with the members’ ids as with the members looked up in the statement', async () => {
    for (const text of ['wombat', 'quokka', 'marsupial', 'marsupial wombat', 'ann quokka fee', 'wombat quokka', 'declined ann', 'charged wombat']) {
      const q = search({
        search: text,
        limit: 50,
        statusNames: [
          ['Charged', ['Charged']],
          ['Declined', ['Declined']],
        ],
      });
      const { reader } = recording();
      const got = await supportSearch<{ id: number }>(reader, reader, q);
      const want = await expected(q);
      expect(
        got.rows.map((r) => r.id),
        text,
      ).toEqual(want.ids);
      expect(got.total, text).toBe(want.total);
    }
    expect((await expected(search({ search: 'marsupial wombat' }))).total).toBe(1);
    expect((await expected(search({ search: 'quokka' }))).total).toBe(1);
  });

  it('reads a word’s charges through the charges’ trigram index, their member index and their status index, ORed per word', async () => {
    const plan = async (text: string) => {
      const q = search({ search: text, statusNames: [['Declined', ['Declined']]] });
      return indexedPlan(supportPage(q, await memberMatches(server.database.sql, q.search)).count);
    };
    // A member's name: in the charge's text, or one of the members' ids.
    const byName = await plan('wombat');
    expect(byName).toMatch(/BitmapOr/);
    expect(byName).toMatch(/Bitmap Index Scan on billing_transactions_search_trgm_idx/);
    expect(byName).toMatch(/Bitmap Index Scan on billing_transactions_member_idx\s+\(.*\n\s+Index Cond: \(member_id = ANY \('\{\d+\}'/);
    // A status's name no member holds: in the charge's text, or that status.
    const byStatus = await plan('declined');
    expect(byStatus).toMatch(/BitmapOr/);
    expect(byStatus).toMatch(/Bitmap Index Scan on billing_transactions_search_trgm_idx/);
    // Through one of the indexes that lead with the status (billing_transactions_status_idx, or _open_idx for an open one).
    expect(byStatus).toMatch(/Bitmap Index Scan on billing_transactions_(status|open)_idx\s+\(.*\n\s+Index Cond: \(status = ANY/);
    expect(byStatus).not.toMatch(/member_id = ANY/);
    for (const p of [byName, byStatus]) expect(p).not.toMatch(/SubPlan|Seq Scan on billing_transactions/);
    const lookup = await indexedPlan({ sql: 'SELECT member_id FROM members WHERE search_text LIKE $1', params: ['%wombat%'] });
    expect(lookup).toMatch(/Bitmap Index Scan on members_search_trgm_idx/);
  });
});
