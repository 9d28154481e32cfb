import { dayIn } from '@portal/core';
import type { SqlClient } from '@portal/server';
import type { Coupon, CouponSearch, CouponStatus } from '../contract';

export interface CouponRow {
  id: number;
  code: string;
  product: Coupon['Product'];
  membership_type: Coupon['MembershipType'];
  discount_type: Coupon['DiscountType'];
  start_date: string | Date;
  end_date: string | Date | null;
  status: CouponStatus;
  version: number;
  created_at: Date | string;
}

/** Dates are read with to_char, so they arrive as 'YYYY-MM-DD' text on PGlite and PostgreSQL alike. */
const day = (v: string | Date | null): string | null => (v === null ? null : typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));

export const COUPON_COLUMNS = `id, code, product, membership_type, discount_type, to_char(start_date, 'YYYY-MM-DD') AS start_date,
  to_char(end_date, 'YYYY-MM-DD') AS end_date, status, version, created_at`;

export const toCoupon = (r: CouponRow): Coupon => ({
  ID: r.id,
  Code: r.code,
  Product: r.product,
  MembershipType: r.membership_type,
  DiscountType: r.discount_type,
  StartDate: day(r.start_date) ?? '',
  EndDate: day(r.end_date),
  Status: r.status,
  DateCreated: new Date(r.created_at).toISOString(),
  Version: r.version,
});

/**
 * Status of a new coupon, as the spec words it (02 section 4): Active when its start date is past and its end date is
 * empty or past; otherwise Inactive. "Past" includes today: the business's day (`zone`, BUSINESS_TIME_ZONE) at `at`,
 * not the UTC day (at 5:00 pm on Dec 31 in Los Angeles a coupon starting Jan 1 has not started).
 */
export function newCouponStatus(startDate: string, endDate: string | null | undefined, zone: string, at: Date = new Date()): CouponStatus {
  const today = dayIn(zone, at);
  return startDate <= today && (!endDate || endDate <= today) ? 'Active' : 'Inactive';
}

const SORT_SQL: Record<string, string> = {
  DateCreated: 'created_at',
  Code: 'lower(code)',
  Product: 'product',
  MembershipType: 'membership_type',
  DiscountType: 'discount_type',
  StartDate: 'start_date',
  EndDate: 'end_date',
  Status: 'status',
  ID: 'id',
};

export async function searchCoupons(
  sql: SqlClient,
  s: Required<Pick<CouponSearch, 'PageIndex' | 'PageSize' | 'SortColumn' | 'SortOrder'>> & { Query: NonNullable<CouponSearch['Query']> },
) {
  const where = `($1::text IS NULL OR strpos(lower(code), lower($1)) > 0) AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR product = $3)`;
  const params = [s.Query.SearchString || null, s.Query.Status ?? null, s.Query.Product ?? null];
  const order = `${SORT_SQL[s.SortColumn as string] ?? 'created_at'} ${s.SortOrder === 'ASC' ? 'ASC' : 'DESC'} NULLS LAST, id ${s.SortOrder === 'ASC' ? 'ASC' : 'DESC'}`;
  const rows = await sql.query<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE ${where} ORDER BY ${order} LIMIT $4 OFFSET $5`, [
    ...params,
    s.PageSize,
    Number(s.PageIndex) * Number(s.PageSize),
  ]);
  const count = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM coupons WHERE ${where}`, params))[0]?.n ?? 0;
  return { Items: rows.map(toCoupon), ItemCount: count };
}

export async function couponById(sql: SqlClient, id: number): Promise<CouponRow | null> {
  return (await sql.query<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE id = $1`, [id]))[0] ?? null;
}

/** The coupon of a code, any case; with `share`, its row locked FOR SHARE in `sql` (a transaction) until that ends. */
export async function couponByCode(sql: SqlClient, code: string, { share = false }: { share?: boolean } = {}): Promise<CouponRow | null> {
  return (
    (await sql.query<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE lower(code) = lower($1)${share ? ' FOR SHARE' : ''}`, [code.trim()]))[0] ?? null
  );
}
