import type { CouponUsage } from '@portal/plugin-coupons/service';
import type { SqlClient } from '@portal/server';

/** Members per code ($1, the codes), ignoring case: by migration 0008's index of lower(coupon_code). */
export const MEMBERS_USING_SQL = `SELECT c.code, count(*)::int AS members
  FROM unnest($1::text[]) AS c(code)
  JOIN billing_customers bc ON lower(bc.coupon_code) = lower(c.code) AND bc.coupon_code IS NOT NULL
 GROUP BY c.code`;

/**
 * Billing's answer to the coupons plugin's "which of these codes are in use?" (CouponUsage, handed in at start-up): the
 * members whose membership was given with the code, as `billing_customers.coupon_code` keeps it (the code as the
 * member or support typed it, so matched ignoring case, as codes are unique). A membership started since without a
 * coupon cleared the code, so it counts no more. Read with the caller's transaction (a coupon delete's).
 */
export function couponUsage(sql: SqlClient): CouponUsage {
  return {
    async membersUsing(codes, tx = sql) {
      if (codes.length === 0) return new Map();
      const rows = await tx.query<{ code: string; members: number }>(MEMBERS_USING_SQL, [[...codes]]);
      return new Map(rows.map((r) => [r.code, r.members]));
    },
  };
}
