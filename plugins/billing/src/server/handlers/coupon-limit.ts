import { CouponCheckStatus } from '@portal/plugin-coupons/contract';
import { ApiError, type RouteContext, type ThrottleRule } from '@portal/server';
import { tooManyCouponCodes } from '../../contract';
import { billingOf } from '../billing-ref';
import type { Billing } from '../core';
import { BILLING_THROTTLE } from '../throttle';

type CouponContext = Pick<RouteContext, 'services' | 'reply' | 'req' | 'audit' | 'use'>;

/**
 * Guessing coupon codes is limited: a valid code is a free lifetime membership, and anyone can register on the assist
 * brand. Every member call that takes a code (check-coupon, customer/coupon, subscription/start and save-subscription
 * with a code) checks it here first, counted per member and per client address (BILLING_THROTTLE):
 *
 * 1. Over a wrong-code limit (the member's 10 an hour, the address's 30): 429 before the code is looked at, so the right
 *    code is refused as a wrong one is, and the call charges and changes nothing.
 * 2. Every check is counted, atomically and before it runs, toward the member's 30 and the address's 100 an hour.
 * 3. A wrong code (any status but valid) is counted toward the wrong-code limits, atomically, before its answer goes
 *    out: of wrong codes sent at once no more than the limit are answered, the others are 429.
 *
 * A valid code is not counted as wrong, so a member who mistyped a few codes still uses the right one. Its answer rests
 * on step 1's read, which wrong codes counted at that very moment can race: step 2 bounds how many checks can be under
 * way together. A refusal is audited (`billing.coupon.check`, refused); the codes tried are not.
 */
export async function checkedCoupon(ctx: CouponContext, memberId: number, code: string, staffUserId?: string): ReturnType<Billing['checkCoupon']> {
  const throttle = ctx.services.throttle;
  const member = String(memberId);
  const address = ctx.req.ip;
  // Support's setcoupon (`staffUserId`) counts per staff user: a compromised staff login guesses no faster than a
  // member, and a member's own limits are not spent by staff.
  const failures: [ThrottleRule, string][] = staffUserId
    ? [[BILLING_THROTTLE.couponFailuresPerStaff, staffUserId]]
    : [
        [BILLING_THROTTLE.couponFailuresPerMember, member],
        [BILLING_THROTTLE.couponFailuresPerAddress, address],
      ];
  const checks: [ThrottleRule, string][] = staffUserId
    ? [[BILLING_THROTTLE.couponChecksPerStaff, staffUserId]]
    : [
        [BILLING_THROTTLE.couponChecksPerMember, member],
        [BILLING_THROTTLE.couponChecksPerAddress, address],
      ];
  const refused = (limit: 'wrong codes' | 'checks') =>
    ctx.audit({
      action: 'billing.coupon.check',
      outcome: 'refused',
      entity: 'billing_customer',
      entityId: member,
      memberId,
      detail: { reason: 'throttled', limit },
    });
  const counted = async (limit: 'wrong codes' | 'checks', rules: [ThrottleRule, string][]) => {
    try {
      await throttle.enforce(ctx.reply, rules, tooManyCouponCodes);
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) await refused(limit);
      throw e;
    }
  };

  let wait = 0;
  for (const [rule, key] of failures) wait = Math.max(wait, await throttle.secondsToWait(rule, key));
  if (wait > 0) {
    await refused('wrong codes');
    ctx.reply.header('retry-after', String(wait));
    throw new ApiError(429, tooManyCouponCodes(Math.ceil(wait / 60)));
  }
  await counted('checks', checks);
  const check = await billingOf(ctx).checkCoupon(memberId, code);
  if (check.Status !== CouponCheckStatus.Valid) await counted('wrong codes', failures);
  return check;
}
