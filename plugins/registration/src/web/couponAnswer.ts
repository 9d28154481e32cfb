import { BillingApi } from '@portal/plugin-billing/contract';
import type { CouponAnswer } from '../steps';

/** A code the check-coupon call's contract accepts (at most 40 characters once trimmed): only those are checked. */
export const checkableCoupon = (code: string | null): code is string => code !== null && BillingApi.checkCoupon.body.safeParse({ Code: code }).success;

/**
 * The card screen's answer about the code in its address, from the check-coupon query (spec 01 sections 4 and 5): a
 * code the contract refuses cannot be valid ('refused', no call); a failed call is 'failed' until a retry runs
 * ('pending' again while it does); otherwise the check's Status once it answered.
 */
export function couponAnswer(code: string | null, check: { data?: { Status: number }; isError: boolean; isFetching: boolean }): CouponAnswer {
  if (code !== null && !checkableCoupon(code)) return 'refused';
  if (check.isError && !check.isFetching) return 'failed';
  return check.data ? { Status: check.data.Status } : 'pending';
}
