import { parseMoney } from '@portal/core';
import {
  allWordsSql,
  type CountedPage,
  containsPattern,
  countKey,
  foldText,
  keptCountsFor,
  type SqlClient,
  type SqlParam,
  searchWords,
  sqlParams,
} from '@portal/server';
import type { TransactionExport, TransactionSearch } from '../service';

/**
 * The SQL of support's reads of every member's charges: the paged grid, the export's keyset batches and the work
 * queue's counts, and the lookup of a charge's refund or void. Built here, apart from the service, so the tests can
 * EXPLAIN the very statements the service runs against the indexes of migration 0005.
 */
export interface Statement {
  sql: string;
  params: unknown[];
}

const SUPPORT_TX_COLUMNS = 't.*, c.customer_profile_id, m.member_number, m.first_name, m.last_name';
const SUPPORT_TX_FROM = `FROM billing_transactions t JOIN members m ON m.member_id = t.member_id LEFT JOIN billing_customers c ON c.member_id = t.member_id
  WHERE t.kind IN ('subscription', 'charge', 'authorize', 'prepull')`;
/** Charges as support sees them: refund and void records stay behind the charge they reversed. */
export const SUPPORT_TX_SELECT = `SELECT ${SUPPORT_TX_COLUMNS}
  ${SUPPORT_TX_FROM}`;
/**
 * Each sort column's keys, in order, with the type of each. An export batch reads its last row's keys as text and
 * bounds the next batch with them cast back: a timestamp keeps its microseconds (a JavaScript Date would round them to
 * milliseconds and skip or repeat rows). A member's name sorts by last name, then first name, the order of the
 * members' name index (kernel migration 0001): a page walks the members in that order and reads each one's charges
 * through billing_transactions_member_idx, where one key of their joined text sorted every charge the search found.
 */
const SORT_KEYS: Record<TransactionSearch['sortColumn'], readonly (readonly [expr: string, type: string])[]> = {
  DateCreated: [['t.created_at', 'timestamptz']],
  Amount: [['t.amount_cents', 'integer']],
  Status: [['t.status', 'text']],
  TransactionID: [],
  MemberName: [
    ['lower(m.last_name)', 'text'],
    ['lower(m.first_name)', 'text'],
  ],
};

/**
 * A charge's own text a support search looks in, its id, gateway id, PA number, description and status: migration 0010
 * keeps it folded (foldSql) in `billing_transactions.search_text` as the row is written, so a search compares each
 * charge's stored text instead of folding it afresh.
 */
export const CHARGE_TEXT = `id::text || ' ' || coalesce(gateway_trans_id::text, '') || ' ' || coalesce(pa_number, '') || ' ' || coalesce(description, '') || ' ' || status`;
/** A word must have this many letters to stand for the statuses whose shown name it begins ('pa' would be Paid and Pending). */
const STATUS_WORD_MIN = 3;

/**
 * The cents of a search text that reads as an amount ('12.50', '$12.50', '1,200', '1200', '12,5'), or null. `marked`:
 * written as money (a $, a decimal or a thousands mark), so it is nothing else; plain digits may be an id as well.
 */
export function searchAmount(text: string): { cents: number; marked: boolean } | null {
  const t = text.trim();
  if (!/^\$?\s*[\d.,]+$/.test(t) || !/\d/.test(t)) return null;
  const dollars = parseMoney(t);
  if (dollars === null || dollars < 0) return null;
  const cents = Math.round(dollars * 100);
  if (Math.abs(cents - dollars * 100) > 1e-6 || cents > 2_147_483_647) return null;
  return { cents, marked: /[$.,]/.test(t) };
}

/** The words a search text looks for in the charges' and members' text: none for no text or an amount written as money. */
function textWords(search: string | null | undefined): string[] {
  if (!search || searchAmount(search)?.marked) return [];
  return searchWords(search);
}

/**
 * The most members a word's list of matching members (memberMatches) holds. A word more members hold is looked up in
 * members by the statement itself (a hashed subplan), as that word's charges are most of the table's anyway.
 */
export const MEMBER_IDS_MAX = 1_000;
/** Per word of a search, the ids of the members whose text holds it, or null when more than MEMBER_IDS_MAX do. */
export type MemberMatches = ReadonlyMap<string, readonly number[] | null>;

/**
 * The members each word of a search finds, read before the charges' statements (one statement, through the members'
 * trigram index: kernel migration 0012), so that these carry them as a list of ids. A word is in a charge's text, in
 * its member's, or names a status: with the ids, every way is one an index serves (the charges' trigram index, their
 * member index, their status index), so the planner can combine the indexes' findings (a BitmapOr per word, ANDed)
 * instead of reading every charge. At a million charges on PostgreSQL the count of a gateway id went from 194 to 4 ms
 * (issue 23, fifty-ninth pass). A list is bound as a parameter, which PostgreSQL plans as a constant: the planner
 * knows its length, and a scan that tests it hashes it.
 */
export async function memberMatches(reader: SqlClient, search: string | null | undefined): Promise<MemberMatches> {
  const words = textWords(search);
  if (!words.length) return new Map();
  const params: unknown[] = [];
  const param = sqlParams(params);
  const sql = words
    .map(
      (word, i) =>
        `SELECT ${i} AS i, ARRAY(SELECT member_id FROM members WHERE search_text LIKE ${param(containsPattern(word))} LIMIT ${MEMBER_IDS_MAX + 1}) AS ids`,
    )
    .join(' UNION ALL ');
  const rows = await reader.query<{ i: number; ids: number[] }>(sql, params);
  return new Map(rows.map(({ i, ids }) => [words[i] as string, ids.length > MEMBER_IDS_MAX ? null : ids]));
}

/**
 * The search text's condition (true for none): every word in the charge's or its member's text or a status it names,
 * or the amount. `members`: the members each word finds (memberMatches); a word without a list (none given, or too many
 * members) finds its members in the statement.
 */
function textOf(q: Pick<TransactionSearch, 'search' | 'statusNames'>, param: SqlParam, members?: MemberMatches): string {
  const words = searchWords(q.search);
  if (!q.search || !words.length) return 'true';
  const amount = searchAmount(q.search);
  if (amount?.marked) return `t.amount_cents = ${param(amount.cents)}`;
  const names = (q.statusNames ?? []).map(([name, statuses]) => [foldText(name), statuses] as const);
  const byStatus = (word: string) => {
    if (word.length < STATUS_WORD_MIN) return null;
    const statuses = [...new Set(names.filter(([name]) => name.startsWith(word)).flatMap(([, s]) => s))];
    return statuses.length ? `t.status = ANY(${param(statuses)}::text[])` : null;
  };
  const byMember = (word: string, pattern: string) => {
    const ids = members?.get(word);
    if (!ids) return `t.member_id IN (SELECT sm.member_id FROM members sm WHERE sm.search_text LIKE ${pattern})`;
    return ids.length ? `t.member_id = ANY(${param(ids)}::int[])` : null;
  };
  // A word is in the charge's stored text, in its member's (members.search_text: name, number and e-mail), or names a
  // status. No word has a space, so each is in one column or another: the same charges as one folded text of both.
  const all = allWordsSql({ folded: 't.search_text' }, words, param, (word, pattern) => {
    const ways = [byMember(word, pattern), byStatus(word)].filter((way) => way !== null);
    return ways.length ? ways.join(' OR ') : null;
  });
  return amount ? `(${all} OR t.amount_cents = ${param(amount.cents)})` : all;
}

/**
 * A search's filter, the conditions after SUPPORT_TX_SELECT's, with its parameters ($1 to $3, then the search's):
 * statuses (a charge with a PA number counts as 'PA Number' too; none: every status), member and text (textOf).
 */
function filterOf(q: Pick<TransactionSearch, 'statuses' | 'search' | 'statusNames' | 'memberId'>, members?: MemberMatches): Statement {
  const statuses = q.statuses.filter((s) => s !== 'PA Number');
  const params: unknown[] = [q.statuses.length ? statuses : null, q.statuses.includes('PA Number'), q.memberId];
  const text = textOf(q, sqlParams(params), members);
  return {
    sql: `($1::text[] IS NULL OR t.status = ANY($1::text[]) OR ($2::boolean AND t.pa_number IS NOT NULL))
        AND ($3::int IS NULL OR t.member_id = $3)
        AND ${text}`,
    params,
  };
}
const direction = (q: Pick<TransactionSearch, 'sortOrder'>) => (q.sortOrder === 'ASC' ? 'ASC' : 'DESC');
/** An ORDER BY of `keys`, then `id`, each the search's way. */
const orderBy = (keys: readonly string[], id: string, q: Pick<TransactionSearch, 'sortOrder'>) =>
  `ORDER BY ${[...keys, id].map((key) => `${key} ${direction(q)}`).join(', ')}`;
/** The grid's and the export's order: the sort column, then the id the same way (so the order is total). */
const orderOf = (q: Pick<TransactionSearch, 'sortColumn' | 'sortOrder'>) =>
  orderBy(
    SORT_KEYS[q.sortColumn].map(([expr]) => expr),
    't.id',
    q,
  );

/**
 * The most matches a page sorts by itself ({@link supportPage}'s `fewPage`, {@link sortsItsMatches}); past it, sorting
 * whole matched rows costs more than a walk in an index's order.
 */
const FEW_MATCHES = 5_000;
/**
 * The most matches a page sorts by itself under the member-name sort when a word of the search names members (its
 * list of members' ids, memberMatches, is not empty): their charges sit together in that order.
 */
const FEW_NAMED_MATCHES = 100_000;
/**
 * Whether a page of a search that finds `total` charges is read by sorting its matches (`fewPage`) rather than by
 * walking an index in the sort's order (`page`), when the matches are few enough to sort: when the walk would, on
 * average, read at least half the order before it held the page (a search finding fewer than twice the page's end);
 * and for a text search under the member-name sort, whose matches sit together in that order (a name, an e-mail, a
 * member number find one member's or one name's charges), so the walk reads every charge of the members before them:
 * at 200,000 charges on PGlite, "maria garcia" (1,280 charges) walked 229–351 ms to its first page and sorted 137,
 * where a walk's best case saves 70 ms (`scripts/bench/support-search.ts`, issue 23, fifty-eighth pass).
 * When a word of the search names members (`members`, memberMatches), that holds up to FEW_NAMED_MATCHES: at a million
 * charges on PostgreSQL, "nunez" (77,900 charges) walked 548 ms and sorted 155, "maria garcia" (6,400) walked 1,121
 * and sorted 45; a word only the charges hold ("prescription", 250,000) spreads over the names, and walks in 2 ms
 * (fifty-ninth pass).
 */
export const sortsItsMatches = (total: number, q: Pick<TransactionSearch, 'offset' | 'limit' | 'sortColumn' | 'search'>, members?: MemberMatches) => {
  if (total <= FEW_MATCHES && total < 2 * (q.offset + q.limit)) return true;
  if (q.sortColumn !== 'MemberName' || searchWords(q.search).length === 0) return false;
  const namesMembers = [...(members?.values() ?? [])].some((ids) => ids !== null && ids.length > 0);
  return total <= (namesMembers ? FEW_NAMED_MATCHES : FEW_MATCHES);
};

/**
 * The support grid: one page by LIMIT/OFFSET, and the number of charges the search finds. Two statements: the page
 * carrying the total (`count(*) OVER ()`) would build every matching row to count them, 6 times slower than the count
 * at 200,000 charges on PGlite (480–500 ms against 80 for both statements), where the count reads fewer columns.
 *
 * The page comes two ways, the same rows in the same order. `page` lets the planner walk an index in the sort's order
 * (the date's, the amount's, the status's, the members' name index) and stop after the page: a broad search's first
 * pages read little more than their own rows. When the search finds few charges that walk reads on past them to the
 * index's end, since no further match turns up to fill the page; on a name search under the name sort, which finds
 * one member's charges in one place in the order, every charge before them is read too. `fewPage` finds the matches
 * first, as the count does (through whichever index the filter has), and sorts just those: at most about the count's
 * cost again. supportSearch takes it when the count says so ({@link sortsItsMatches}). At 200,000 charges on PGlite a
 * search for one member's e-mail (40 charges) under the name sort: `page` 250 ms, `fewPage` 81, the count 92
 * (`scripts/bench/support-search.ts`, issue 23, fifty-eighth pass).
 */
export function supportPage(q: TransactionSearch, members?: MemberMatches): { count: Statement; page: Statement; fewPage: Statement } {
  const filter = filterOf(q, members);
  const limits = `LIMIT $${filter.params.length + 1} OFFSET $${filter.params.length + 2}`;
  const params = [...filter.params, q.limit, q.offset];
  const keys = SORT_KEYS[q.sortColumn];
  return {
    count: { sql: `SELECT count(*)::int AS n FROM (${SUPPORT_TX_SELECT} AND ${filter.sql}) x`, params: filter.params },
    page: { sql: `${SUPPORT_TX_SELECT} AND ${filter.sql} ${orderOf(q)} ${limits}`, params },
    fewPage: {
      sql: `WITH hits AS MATERIALIZED (SELECT ${keys.map(([expr], i) => `${expr} AS sort_key_${i}, `).join('')}${SUPPORT_TX_COLUMNS}
  ${SUPPORT_TX_FROM} AND ${filter.sql})
  SELECT * FROM hits ${orderBy(
    keys.map((_, i) => `sort_key_${i}`),
    'id',
    q,
  )} ${limits}`,
      params,
    },
  };
}

/**
 * One page of the support grid and the number of charges its search finds, read from `reader` (the read replica when
 * there is one). A broad search's total is kept a while per database (the kernel's KeptCounts, on `primary`'s handle),
 * so paging through it reads each page and counts once: at 200,000 charges on PGlite a page of every status then
 * takes 2–9 ms instead of 80–83. A search the count finds few enough matches for sorts them (`fewPage`).
 */
export async function supportSearch<R>(primary: SqlClient, reader: SqlClient, q: TransactionSearch): Promise<CountedPage<R>> {
  const members = await memberMatches(reader, q.search);
  const { count, page, fewPage } = supportPage(q, members);
  const rows = (s: Statement) => reader.query<R>(s.sql, s.params);
  return keptCountsFor(primary, 'support-transactions').page(countKey(count.sql, count.params), {
    rows: () => rows(page),
    rowsWithTotal: async () => {
      const total = (await reader.query<{ n: number }>(count.sql, count.params))[0]?.n ?? 0;
      return { rows: total > q.offset ? await rows(sortsItsMatches(total, q, members) ? fewPage : page) : [], total };
    },
  });
}

/** The last row of an export batch: its sort keys (as text, see SORT_KEYS) and id. */
export interface BatchEnd {
  keys: readonly string[];
  id: number;
}
/**
 * One batch of support's export, in the grid's order: the charges after `after` (null: from the first), with the sort
 * keys of each as `sort_key_0`, `sort_key_1`. Keyset paging on (sort keys, id), without a count or an OFFSET, so each
 * batch reads about its own rows where an index gives the order; `ids` (when given) narrows it in SQL.
 */
export function supportBatch(q: TransactionExport, after: BatchEnd | null, members?: MemberMatches): Statement {
  const filter = filterOf(q, members);
  const params = [...filter.params];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const keys = SORT_KEYS[q.sortColumn];
  let sql = `SELECT ${keys.map(([expr], i) => `(${expr})::text AS sort_key_${i}, `).join('')}${SUPPORT_TX_COLUMNS}
  ${SUPPORT_TX_FROM} AND ${filter.sql}`;
  if (q.ids) sql += ` AND t.id = ANY(${param([...q.ids])}::int[])`;
  if (after) {
    const cmp = direction(q) === 'ASC' ? '>' : '<';
    const bounds = keys.map(([, type], i) => `${param(after.keys[i])}::${type}`);
    sql += keys.length
      ? ` AND (${keys.map(([expr]) => expr).join(', ')}, t.id) ${cmp} (${bounds.join(', ')}, ${param(after.id)}::int)`
      : ` AND t.id ${cmp} ${param(after.id)}::int`;
  }
  return { sql: `${sql} ${orderOf(q)} LIMIT ${param(q.batchSize)}`, params };
}

/** The rows of support's export, batch by batch ({@link supportBatch}): each batch starts after the last row of the one before. */
export async function* supportBatches<R extends { id: number }>(reader: SqlClient, q: TransactionExport): AsyncGenerator<R[]> {
  const keyCount = SORT_KEYS[q.sortColumn].length;
  const members = await memberMatches(reader, q.search);
  let after: BatchEnd | null = null;
  for (;;) {
    const batch = supportBatch(q, after, members);
    const rows = await reader.query<R & Record<`sort_key_${number}`, string>>(batch.sql, batch.params);
    if (rows.length) yield rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < q.batchSize) return;
    after = { keys: Array.from({ length: keyCount }, (_, i) => last[`sort_key_${i}`] ?? ''), id: last.id };
  }
}

/** The work queue: how many charges of each of these statuses support's lists show, in one query. */
export function supportStatusCounts(statuses: readonly string[]): Statement {
  return {
    sql: `SELECT x.status, count(*)::int AS n FROM (${SUPPORT_TX_SELECT} AND t.status = ANY($1::text[])) x GROUP BY x.status`,
    params: [statuses],
  };
}

/** A charge's refund or void record, if one was made: `reverse` looks for it before it asks the gateway. */
export const reversalOf = (transactionId: number, kind: 'refund' | 'void'): Statement => ({
  sql: 'SELECT * FROM billing_transactions WHERE ref_transaction_id = $1 AND kind = $2',
  params: [transactionId, kind],
});
