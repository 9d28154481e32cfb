import { allWordsSql, phoneDigits, type SqlClient, searchWords, sqlParams } from '@portal/server';
import type { z } from 'zod';
import type { memberListSchema, memberSummarySchema } from '../contract';

type Summary = z.infer<typeof memberSummarySchema>;
type ListQuery = z.output<typeof memberListSchema>;

interface Row {
  member_id: number;
  member_number: string;
  first_name: string;
  last_name: string;
  email: string | null;
  brand: string;
  approved_date: string | null;
  termination_date: string | null;
}
const toSummary = (r: Row): Summary => ({
  MemberID: r.member_id,
  MemberNumber: r.member_number,
  FirstName: r.first_name,
  LastName: r.last_name,
  Email: r.email,
  Brand: r.brand,
  ApprovedDate: r.approved_date,
  TerminationDate: r.termination_date,
});

// Read-only over the kernel's members and users tables; writes go through the members service.
const SELECT = `SELECT m.member_id, m.member_number, m.first_name, m.last_name, m.email, m.brand,
  to_char(m.approved_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS approved_date,
  to_char(m.termination_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS termination_date FROM members m`;
const PENDING = 'EXISTS (SELECT 1 FROM users u WHERE u.member_id = m.member_id AND (NOT u.is_active OR u.registration_step < 10))';
const TERMINATED = '(m.termination_date IS NOT NULL AND m.termination_date <= now())';
const STATUS: Record<ListQuery['Status'], string> = {
  Members: `NOT ${TERMINATED} AND NOT ${PENDING}`,
  Pending: `NOT ${TERMINATED} AND ${PENDING}`,
  Terminated: TERMINATED,
  All: 'true',
};
/**
 * Each sort's key; `nullable`: the column may be empty, and empties come last either way. The others name no NULLS
 * order, and the member id follows the sort's direction, so a page in either direction reads an index in its order
 * (kernel indexes on lower(first_name), member_id and on the last and first names) instead of sorting every member.
 */
const SORT: Record<ListQuery['SortColumn'], { keys: readonly string[]; nullable: boolean }> = {
  FirstName: { keys: ['lower(m.first_name)'], nullable: false },
  // Last name, then first name (the kernel's members_name_idx): namesakes in a stable, readable order.
  LastName: { keys: ['lower(m.last_name)', 'lower(m.first_name)'], nullable: false },
  MemberNumber: { keys: ['m.member_number'], nullable: false },
  Email: { keys: ['lower(m.email)'], nullable: true },
  ApprovedDate: { keys: ['m.approved_date'], nullable: true },
};

/** The members list's ORDER BY for a sort: its key, then the member id in the same direction. */
export function memberOrder(column: ListQuery['SortColumn'], order: ListQuery['SortOrder']): string {
  const { keys, nullable } = SORT[column];
  const dir = order === 'DESC' ? 'DESC' : 'ASC';
  return [...keys.map((key) => `${key} ${dir}${nullable ? ' NULLS LAST' : ''}`), `m.member_id ${dir}`].join(', ');
}
/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** A member's phones, as stored (ten digits each). */
const MEMBER_PHONES = `coalesce(m.mobile_phone, '') || ' ' || coalesce(m.home_phone, '') || ' ' || coalesce(m.work_phone, '')`;

/**
 * The members a search text finds, as a condition on `m` with its parameters pushed to `params`: every word of the text
 * (the kernel's searchWords: any order, commas, spacing, case and accents aside) in the name, member number or e-mail;
 * or, for text that reads as a phone number, a phone holding its digits ("(512) 555-0101", "+1 512 555 0101").
 */
export function memberSearchSql(search: string | null | undefined, params: unknown[]): string {
  const words = searchWords(search);
  if (!words.length) return 'true';
  const param = sqlParams(params);
  // Name, member number and e-mail (the list's columns), kept folded in members.search_text (MEMBER_TEXT).
  const all = allWordsSql({ folded: 'm.search_text' }, words, param);
  const phone = phoneDigits(search);
  return phone ? `(${all} OR strpos(${MEMBER_PHONES}, ${param(phone)}) > 0)` : all;
}

/** The members list's two statements: the count, and the page (its size and offset the last parameters). */
export function memberPageSql(q: Pick<ListQuery, 'Status' | 'SortColumn' | 'SortOrder' | 'PageSize' | 'PageIndex'> & { SearchString?: string | null }): {
  count: Statement;
  page: Statement;
} {
  const params: unknown[] = [];
  const where = `${STATUS[q.Status]} AND ${memberSearchSql(q.SearchString, params)}`;
  const n = params.length;
  return {
    count: { sql: `SELECT count(*)::int AS n FROM members m WHERE ${where}`, params },
    page: {
      sql: `${SELECT} WHERE ${where} ORDER BY ${memberOrder(q.SortColumn, q.SortOrder)} LIMIT $${n + 1} OFFSET $${n + 2}`,
      params: [...params, q.PageSize, q.PageIndex * q.PageSize],
    },
  };
}

/** Support's member list: one page and the count, by status and search text. */
export async function memberPage(sql: SqlClient, q: ListQuery): Promise<{ Items: Summary[]; ItemCount: number }> {
  const { count, page } = memberPageSql(q);
  const total = (await sql.query<{ n: number }>(count.sql, count.params))[0]?.n ?? 0;
  const rows = await sql.query<Row>(page.sql, page.params);
  return { Items: rows.map(toSummary), ItemCount: total };
}

/** Members the text finds (memberSearchSql); at most `limit`, by last then first name. */
export async function memberSummaries(sql: SqlClient, name: string, limit: number): Promise<Summary[]> {
  // Text with no word in it (',' or '-') names no one: the picker offers nobody rather than the first members.
  if (!searchWords(name).length) return [];
  const params: unknown[] = [];
  const where = memberSearchSql(name, params);
  const rows = await sql.query<Row>(`${SELECT} WHERE ${where} ORDER BY lower(m.last_name), lower(m.first_name), m.member_id LIMIT $${params.length + 1}`, [
    ...params,
    limit,
  ]);
  return rows.map(toSummary);
}
