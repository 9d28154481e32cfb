import { describe, expect, it } from 'vitest';
import { checkableCoupon, couponAnswer } from './couponAnswer';

const idle = { isError: false, isFetching: false };

describe("the card screen's answer about the coupon code in its address", () => {
  it('is pending until the check answers, so the screen shows its loading state', () => {
    expect(couponAnswer('LIFE-CARD', idle)).toBe('pending');
    expect(couponAnswer('LIFE-CARD', { ...idle, isFetching: true })).toBe('pending');
  });

  it("is the check's Status once it answered", () => {
    expect(couponAnswer('LIFE-CARD', { ...idle, data: { Status: 0 } })).toEqual({ Status: 0 });
    expect(couponAnswer('STALE', { ...idle, data: { Status: 4 } })).toEqual({ Status: 4 });
  });

  it('is failed when the call failed, and pending again while a retry runs', () => {
    expect(couponAnswer('LIFE-CARD', { isError: true, isFetching: false })).toBe('failed');
    expect(couponAnswer('LIFE-CARD', { isError: true, isFetching: true })).toBe('pending');
  });

  it('refuses, without a call, a code the check-coupon contract refuses (over 40 characters): it cannot be valid', () => {
    const long = 'X'.repeat(41);
    expect(checkableCoupon(long)).toBe(false);
    expect(couponAnswer(long, idle)).toBe('refused');
    expect(checkableCoupon('X'.repeat(40))).toBe(true);
    expect(checkableCoupon(null)).toBe(false);
  });
});
