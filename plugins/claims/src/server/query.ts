import { ClaimStatus } from '@portal/core';
import { containsPattern, escapeLike } from '@portal/server';
import { type ClaimSearch, PAID_STATUS_IDS, type SortColumn } from '../contract';
import { DISPLAY_STATUS_SQL } from './migrations';
import { identifierSql, normalIdentifier } from './textMatch';

/**
 * Builds the parameterized SQL of the bills search. Only whitelisted column expressions and
 * numbered parameters reach the text; every value travels as a parameter.
 */

/** Whose bills: one member's, or (null) every member's for staff allowed to work across members. */
export interface ClaimScope {
  memberId: number | null;
}

const claimColumns = (member: string) => `
  c.claim_id AS "ClaimID", c.claim_number AS "ClaimNumber", c.payee_name AS "PayeeName", c.payee_id AS "PayeeID",
  c.claim_status_id AS "ClaimStatusID",
  CASE WHEN c.claim_status_id IN (${PAID_STATUS_IDS.join(',')}) THEN ${ClaimStatus.Paid} ELSE c.claim_status_id END AS "DisplayStatusID",
  c.bill_type_id AS "BillTypeID", c.claim_type_id AS "ClaimTypeID",
  c.billed_cents::float8 / 100 AS "BilledAmount", c.submitted_unc_cents::float8 / 100 AS "SubmittedUNCAmount",
  c.service_date_from::text AS "ServiceDateFrom", c.service_date_to::text AS "ServiceDateTo",
  c.received_date::text AS "ReceivedDate", c.bill_review_received_date::text AS "BillReviewReceivedDate",
  c.paid_date::text AS "PaidDate", c.paid_cents::float8 / 100 AS "PaidAmount", c.check_number AS "CheckNumber",
  c.member_id AS "MemberID", ${member},
  c.version AS "Version"`;

/** The wire row, selected from claims c JOIN members m. */
export const CLAIM_COLUMNS = claimColumns(`m.member_number AS "MemberNumber", (m.first_name || ' ' || m.last_name) AS "MemberName"`);

/** The wire row, selected from claims c alone: the member's number and name are looked up per row. */
const CLAIM_COLUMNS_LOOKED_UP = claimColumns(
  `(SELECT member_number FROM members WHERE member_id = c.member_id) AS "MemberNumber",
  (SELECT first_name || ' ' || last_name FROM members WHERE member_id = c.member_id) AS "MemberName"`,
);

/** Sort column to SQL expression; the needsMember ones sort on the joined member. */
const SORTS: Record<SortColumn, { expr: string; nullable?: boolean; needsMember?: boolean }> = {
  ClaimID: { expr: 'c.claim_id' },
  ClaimNumber: { expr: 'c.claim_number' },
  // Text sorts ignore case (the database's collation is C: 'acme pharmacy' would follow 'Zeta Labs').
  PayeeName: { expr: 'lower(c.payee_name)' },
  // The status shown (29 and 30 as 8, Paid), as the list reads it: bills shown as Paid sort together.
  ClaimStatusID: { expr: DISPLAY_STATUS_SQL('c.') },
  BillTypeID: { expr: 'c.bill_type_id' },
  ClaimTypeID: { expr: 'c.claim_type_id' },
  BilledAmount: { expr: 'c.billed_cents' },
  SubmittedUNCAmount: { expr: 'c.submitted_unc_cents', nullable: true },
  ServiceDateFrom: { expr: 'c.service_date_from' },
  ServiceDateTo: { expr: 'c.service_date_to', nullable: true },
  ReceivedDate: { expr: 'c.received_date' },
  PaidDate: { expr: 'c.paid_date', nullable: true },
  PaidAmount: { expr: 'c.paid_cents', nullable: true },
  CheckNumber: { expr: 'c.check_number', nullable: true },
  MemberNumber: { expr: 'm.member_number', needsMember: true },
  MemberName: { expr: "lower(m.last_name || ', ' || m.first_name)", needsMember: true },
};

export interface BuiltSearch {
  /** Page rows in order. */
  list: { text: string; params: unknown[] };
  /** Page rows in order, each also carrying the total count as "__total" (one round trip). */
  listWithCount: { text: string; params: unknown[] };
  /** The number of matching rows. */
  count: { text: string; params: unknown[] };
}

/** WHERE conditions for a filter within a scope; returns SQL fragments over alias c and parameters. */
export function buildConditions(f: Partial<ClaimSearch>, scope: ClaimScope, params: unknown[] = []): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (scope.memberId !== null) where.push(`c.member_id = ${p(scope.memberId)}`);
  if (f.MemberID) where.push(`c.member_id = ${p(f.MemberID)}`);
  // A member number names at most one member (it is unique): a scalar subquery, so the planner reads it as one member.
  // Typed in any case, with spaces or '-' ("r000-111 222"): the number as stored is upper case without separators (the
  // kernel makes 'R' and nine digits), so its normal form finds it on the unique index; the text as typed is tried
  // first, for a number stored otherwise.
  if (f.MemberNumber) {
    const normal = normalIdentifier(f.MemberNumber);
    const byNumber = (n: string) => `(SELECT member_id FROM members WHERE member_number = ${p(n)})`;
    where.push(
      normal === f.MemberNumber || normal === ''
        ? `c.member_id = ${byNumber(f.MemberNumber)}`
        : `c.member_id = COALESCE(${byNumber(f.MemberNumber)}, ${byNumber(normal)})`,
    );
  }
  if (f.MemberName) {
    const like = p(containsPattern(f.MemberName.toLowerCase()));
    where.push(
      `c.member_id IN (SELECT member_id FROM members WHERE lower(first_name || ' ' || last_name) LIKE ${like} OR lower(last_name || ', ' || first_name) LIKE ${like})`,
    );
  }
  if (f.ClaimID) where.push(`c.claim_id = ${p(f.ClaimID)}`);
  if (f.PayeeID) where.push(`c.payee_id = ${p(f.PayeeID)}`);
  if (f.ClaimNumber) where.push(`c.claim_number LIKE ${p(`${escapeLike(f.ClaimNumber.toUpperCase())}%`)}`);
  const range = (col: string, from?: string | null, to?: string | null) => {
    if (from) where.push(`${col} >= ${p(from)}::date`);
    if (to) where.push(`${col} <= ${p(to)}::date`);
  };
  range('c.received_date', f.ReceivedDateFrom, f.ReceivedDateTo);
  range('c.service_date_from', f.ServiceDateFrom, f.ServiceDateTo);
  range('c.paid_date', f.PaidDateFrom, f.PaidDateTo);
  range('c.bill_review_received_date', f.BillReviewReceivedDateFrom, f.BillReviewReceivedDateTo);
  // Any case, spaces and '-' ignored ("chk 002" finds CHK-002), on the expression index claims_check_norm_idx.
  if (f.CheckNumber) where.push(`${identifierSql('c.check_number')} = ${p(normalIdentifier(f.CheckNumber))}`);
  if (f.ClaimStatusID) {
    if (f.ClaimStatusID === ClaimStatus.Paid) where.push(`c.claim_status_id IN (${PAID_STATUS_IDS.join(',')})`);
    else where.push(`c.claim_status_id = ${p(f.ClaimStatusID)}`);
  }
  if (f.BillTypeID) where.push(`c.bill_type_id = ${p(f.BillTypeID)}`);
  if (f.ClaimTypeID) where.push(`c.claim_type_id = ${p(f.ClaimTypeID)}`);
  if (f.IsPaid === true) where.push(`c.claim_status_id IN (${PAID_STATUS_IDS.join(',')})`);
  if (f.IsPaid === false) where.push(`c.claim_status_id NOT IN (${PAID_STATUS_IDS.join(',')})`);
  return { where, params };
}

/**
 * ORDER BY for a sort: the column then the claim id in the same direction, so pages are stable.
 * Empty values count as the smallest (last when descending, first when ascending): one index
 * (x DESC NULLS LAST, claim_id DESC) serves both directions.
 */
export function orderBy(column: SortColumn, order: 'asc' | 'desc'): { sql: string; needsMember: boolean } {
  const s = SORTS[column];
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  if (column === 'ClaimID') return { sql: `c.claim_id ${dir}`, needsMember: false };
  const nulls = s.nullable ? (order === 'asc' ? ' NULLS FIRST' : ' NULLS LAST') : '';
  return { sql: `${s.expr} ${dir}${nulls}, c.claim_id ${dir}`, needsMember: !!s.needsMember };
}

/**
 * The shapes of the search. Planning is a large part of a search's cost at a million claims (as long as running it,
 * measured with pg_stat_statements), and it grows with every join, so each shape keeps the joins the planner sees
 * to what it needs:
 * - one member's bills (a member's own list, staff acting for one, or staff filtering by one member's id or number):
 *   the member's rows with the members joined, in
 *   index order, so a page reads its own rows and no others; the total is a count of its own, which the member
 *   indexes answer without reading the table. (It was a window count over the page's query, which read every one of
 *   the member's bills from the table for a page of 20: on the million-claim bench database 92 reads and 216 ms for
 *   one member's list with the pages not in memory, against 20 reads for the page and an index-only count. The cost
 *   of a page no longer grows with the member's history.)
 * - across members: the page's claim ids are found on the claims table alone (index order), so a deep page does not
 *   read the rows it skips; then those claims are read by id, each with its member's number and name looked up
 *   (no join to plan: 0.3 ms against 0.63 ms when the page was joined back to the claims and the members). The total
 *   is a count of its own (listWithCount runs it as a subquery);
 * - across members sorted by a member column: the page is found on claims joined to members, then joined back.
 */
export function buildSearch(f: ClaimSearch, scope: ClaimScope, extraWhere: string[] = []): BuiltSearch {
  const { where, params } = buildConditions(f, scope);
  where.push(...extraWhere);
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const ord = orderBy(f.SortColumn, f.SortOrder);
  const countParams = [...params];
  const listParams = [...params, f.PageSize, f.PageIndex * f.PageSize];
  const page = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  const count = `SELECT count(*)::int AS n FROM claims c ${whereSql}`;
  const built = (list: string, listWithCount: string): BuiltSearch => ({
    list: { text: list, params: listParams },
    listWithCount: { text: listWithCount, params: listParams },
    count: { text: count, params: countParams },
  });
  const withCount = (list: string) => list.replace(' AS "Version"', ` AS "Version", (${count}) AS "__total"`);
  // Staff filtering by a member id or number read one member's bills: the member's shape, not the across-members one
  // (by number, 1.0 ms a search against 1.7 planned and run at a million claims; docs/performance-log.md, twenty-sixth pass).
  if (scope.memberId !== null || f.MemberID || f.MemberNumber) {
    const list = `SELECT ${CLAIM_COLUMNS}\nFROM claims c JOIN members m ON m.member_id = c.member_id ${whereSql}\nORDER BY ${ord.sql} ${page}`;
    return built(list, withCount(list));
  }
  if (!ord.needsMember) {
    const list = `SELECT ${CLAIM_COLUMNS_LOOKED_UP}
FROM claims c
WHERE c.claim_id = ANY(ARRAY(SELECT c.claim_id FROM claims c ${whereSql} ORDER BY ${ord.sql} ${page}))
ORDER BY ${ord.sql}`;
    return built(list, withCount(list));
  }
  const list = `SELECT ${CLAIM_COLUMNS}
FROM (SELECT c.claim_id FROM claims c JOIN members m ON m.member_id = c.member_id ${whereSql} ORDER BY ${ord.sql} ${page}) page
JOIN claims c ON c.claim_id = page.claim_id
JOIN members m ON m.member_id = c.member_id
ORDER BY ${ord.sql}`;
  return built(list, withCount(list));
}
