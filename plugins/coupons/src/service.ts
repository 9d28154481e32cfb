import { serviceRef } from '@portal/core';
import type { SqlClient } from '@portal/server';

/** The answer of a coupon check (spec 01 section 3): Status 0 is valid; a valid coupon always gives lifetime. */
export interface CouponCheck {
  Status: number;
  IsLifetime: boolean;
  IsVendorLifetime: boolean;
  /**
   * One of COUPON_CHECK_MESSAGES, in English (the catalogue's key): a route that answers it words it in the user's
   * language with `ctx.t(Message)` (the coupons plugin's catalogue has it).
   */
  Message: string;
  /** The coupon's id when the code names one. */
  CouponId: number | null;
}

/**
 * A plugin that records the coupon codes members used (billing: the code a membership was given with) answers, for a
 * list of codes, how many members use each. It hands this to the coupons service at start-up (in its `init`:
 * `use(couponsService).addCouponUsage(...)`), so coupons knows which coupons are in use without depending on it.
 */
export interface CouponUsage {
  /**
   * How many members use each of these codes, matched ignoring case (codes are unique ignoring case): keyed by the code
   * as given; a code no member uses may be left out. Reads with `tx` when given (the caller's transaction).
   */
  membersUsing(codes: readonly string[], tx?: SqlClient): Promise<ReadonlyMap<string, number>>;
}

export interface CouponsService {
  /**
   * Checks a code for a member of a brand: it must exist (any case), be Active, have started, not have ended,
   * and be for the brand's product (card: Amethyst, finance: CareGuard, assist: CareAssist; other brands: any).
   * Started and ended are judged on the business's day (BUSINESS_TIME_ZONE) at `at` (now when absent).
   */
  check(code: string, opts: { brand: string | null; at?: Date }): Promise<CouponCheck>;
  /**
   * The check a writer makes in the transaction that gives a membership the code (billing's setcoupon, the member's
   * coupon and a start with a code): the coupon's row is read FOR SHARE in `tx` (the code matched ignoring case, as
   * `check` matches it) and judged as `check` judges it, with the same statuses and messages. Until `tx` ends no delete,
   * edit, activate or deactivate of that coupon commits: a delete waits and then finds the member using it (409). One
   * that committed first is seen: a coupon deleted meanwhile is not found (Status 1), one deactivated or ended is
   * refused as such. Write the code in `tx` only when this answers Status 0.
   */
  holdForUse(code: string, tx: SqlClient, opts: { brand: string | null; at?: Date }): Promise<CouponCheck>;
  /**
   * Adds a plugin's answer to "which of these codes are in use?" (call it in `init`; several plugins may, and their
   * counts add up). A coupon in use is not deleted (support's Delete answers 409 naming it; Deactivate it instead).
   */
  addCouponUsage(usage: CouponUsage): void;
  /**
   * How many members use each of these codes, by every added CouponUsage: keyed by the code as given, 0 for a code
   * nobody uses. Reads with `tx` when given.
   */
  membersUsing(codes: readonly string[], tx?: SqlClient): Promise<Map<string, number>>;
}

export const couponsService = serviceRef<CouponsService>('coupons');
