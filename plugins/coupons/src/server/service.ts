import { dayIn } from '@portal/core';
import type { SqlClient } from '@portal/server';
import { COUPON_CHECK_MESSAGES, CouponCheckStatus, type Product } from '../contract';
import type { CouponCheck, CouponsService, CouponUsage } from '../service';
import { couponByCode, toCoupon } from './queries';

/** Which product's coupons a brand's members may use; brands not listed (staff) take any product. */
export const BRAND_PRODUCT: Readonly<Record<string, Product>> = { card: 'Amethyst', finance: 'CareGuard', assist: 'CareAssist' };

/**
 * The coupon check. A coupon starts and ends on the business's day (`timeZone`, BUSINESS_TIME_ZONE): its last day lasts
 * to midnight there, whatever the member's clock or the database's (UTC) day says.
 */
export function makeCouponsService(sql: SqlClient, timeZone: string): CouponsService {
  /**
   * The check's answer for a code, read with `db`; with `share` (holdForUse) the coupon's row is read FOR SHARE, so it
   * stays as judged until `db`'s transaction ends.
   */
  const judge = async (db: SqlClient, code: string, { brand, at = new Date() }: { brand: string | null; at?: Date }, share: boolean): Promise<CouponCheck> => {
    const today = dayIn(timeZone, at);
    const answer = (Status: number, Message: string, CouponId: number | null, vendorLifetime = false): CouponCheck => ({
      Status,
      IsLifetime: Status === CouponCheckStatus.Valid,
      IsVendorLifetime: Status === CouponCheckStatus.Valid && vendorLifetime,
      Message,
      CouponId,
    });
    const trimmed = code.trim();
    const row = trimmed ? await couponByCode(db, trimmed, { share }) : null;
    if (!row) return answer(CouponCheckStatus.NotFound, COUPON_CHECK_MESSAGES.notFound, null);
    const c = toCoupon(row);
    if (c.Status !== 'Active') return answer(CouponCheckStatus.Inactive, COUPON_CHECK_MESSAGES.inactive, c.ID);
    if (c.StartDate > today) return answer(CouponCheckStatus.NotStarted, COUPON_CHECK_MESSAGES.notStarted, c.ID);
    if (c.EndDate && c.EndDate < today) return answer(CouponCheckStatus.Expired, COUPON_CHECK_MESSAGES.expired, c.ID);
    const product = brand ? BRAND_PRODUCT[brand] : undefined;
    if (product && product !== c.Product) return answer(CouponCheckStatus.OtherProduct, COUPON_CHECK_MESSAGES.otherProduct, c.ID);
    return answer(CouponCheckStatus.Valid, COUPON_CHECK_MESSAGES.valid, c.ID, c.DiscountType === 'Lifetime');
  };
  /** The plugins' answers to "which of these codes are in use?" (billing's), added at start-up. */
  const usages: CouponUsage[] = [];
  return {
    addCouponUsage(usage) {
      usages.push(usage);
    },
    async membersUsing(codes, tx) {
      const total = new Map(codes.map((code) => [code, 0]));
      if (codes.length === 0) return total;
      for (const usage of usages) {
        for (const [code, members] of await usage.membersUsing(codes, tx)) {
          if (total.has(code)) total.set(code, (total.get(code) ?? 0) + members);
        }
      }
      return total;
    },
    check: (code, opts) => judge(sql, code, opts, false),
    holdForUse: (code, tx, opts) => judge(tx, code, opts, true),
  };
}
