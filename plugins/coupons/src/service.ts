import { serviceRef } from '@portal/core';

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

export interface CouponsService {
  /**
   * Checks a code for a member of a brand: it must exist (any case), be Active, have started, not have ended,
   * and be for the brand's product (card: Amethyst, finance: CareGuard, assist: CareAssist; other brands: any).
   * Started and ended are judged on the business's day (BUSINESS_TIME_ZONE) at `at` (now when absent).
   */
  check(code: string, opts: { brand: string | null; at?: Date }): Promise<CouponCheck>;
}

export const couponsService = serviceRef<CouponsService>('coupons');
