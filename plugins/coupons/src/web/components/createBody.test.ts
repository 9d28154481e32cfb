import { newCreateKey, SubmissionKeys } from '@portal/web';
import { describe, expect, it, vi } from 'vitest';
import { couponCreateSchema } from '../../contract';
import { couponCreateBody } from './createBody';

// The kernel's submission keys alone: the whole '@portal/web' index brings styles a unit test cannot load.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/submissionKeys'));

const coupon = {
  Code: 'SPRING-25',
  Product: 'Amethyst',
  MembershipType: 'Year Membership',
  DiscountType: 'Months',
  StartDate: '2026-03-01',
  EndDate: null,
} as const;

describe('the create page sends each new coupon with its submission’s IdempotencyKey', () => {
  it('sends the same key when the same coupon is saved again after a failure, a new one once it changed', () => {
    let n = 0;
    const keys = new SubmissionKeys(() => `coupon-test-${++n}`);
    expect(couponCreateBody(coupon, keys).IdempotencyKey).toBe('coupon-test-1');
    expect(couponCreateBody({ ...coupon }, keys).IdempotencyKey).toBe('coupon-test-1');
    expect(couponCreateBody({ ...coupon, Code: 'SPRING-26' }, keys).IdempotencyKey).toBe('coupon-test-2');
    // Added: the next coupon is a new one, even with the same values.
    keys.added();
    expect(couponCreateBody({ ...coupon, Code: 'SPRING-26' }, keys).IdempotencyKey).toBe('coupon-test-3');
  });

  it('is a body the create contract accepts, with the page’s key', () => {
    const body = couponCreateBody(coupon, new SubmissionKeys(() => newCreateKey('coupon')));
    expect(couponCreateSchema.parse(body).IdempotencyKey).toMatch(/^coupon-/);
  });
});
