import type { ThrottleRule } from '@portal/server';

/**
 * Limits on coupon codes (a valid code gives a free lifetime membership), counted by the kernel's throttle service per
 * member and per client address for a member's calls, and per staff user for support's setcoupon. Wrong codes (any status but valid) count toward the first two; every
 * code checked, valid or not, toward the last two, which bound how many checks can be under way at once when a
 * wrong-code count reaches its limit (see handlers/coupon-limit.ts).
 */
export const BILLING_THROTTLE = {
  couponFailuresPerMember: { kind: 'billing-coupon-fail-member', max: 10, windowSeconds: 60 * 60 },
  couponFailuresPerAddress: { kind: 'billing-coupon-fail-ip', max: 30, windowSeconds: 60 * 60 },
  couponChecksPerMember: { kind: 'billing-coupon-check-member', max: 30, windowSeconds: 60 * 60 },
  couponChecksPerAddress: { kind: 'billing-coupon-check-ip', max: 100, windowSeconds: 60 * 60 },
  /** Support's setcoupon, per staff user (staff share an office's address, so no count per address). */
  couponFailuresPerStaff: { kind: 'billing-coupon-fail-staff', max: 30, windowSeconds: 60 * 60 },
  couponChecksPerStaff: { kind: 'billing-coupon-check-staff', max: 100, windowSeconds: 60 * 60 },
} as const satisfies Record<string, ThrottleRule>;
