import { toIsoDate } from '@portal/core';
import { z } from 'zod';
import { COUPON_STATUSES, type Coupon, DISCOUNT_TYPES, MEMBERSHIP_TYPES, PRODUCTS } from '../../contract';

const required = 'validation.required';
export const couponFormSchema = z
  .object({
    Code: z
      .string()
      .trim()
      .min(1, required)
      .regex(/^[A-Za-z0-9_-]{3,40}$/, 'coupons:form.codeRule'),
    Product: z.enum(PRODUCTS, { error: required }),
    MembershipType: z.enum(MEMBERSHIP_TYPES, { error: required }),
    DiscountType: z.enum(DISCOUNT_TYPES, { error: required }),
    StartDate: z.string({ error: required }).min(1, required),
    EndDate: z.string().nullable(),
    Status: z.enum(COUPON_STATUSES),
  })
  .refine((v) => !v.EndDate || v.EndDate >= v.StartDate, { path: ['EndDate'], message: 'coupons:form.endBeforeStart' });
export type CouponFormValues = z.infer<typeof couponFormSchema>;

/**
 * The form's starting values: the coupon's own, or for a new coupon a StartDate of the user's day on their own clock
 * (`now`'s local day; the UTC day is already tomorrow in a US evening).
 */
export function couponFormValues(c: Coupon | null, now = new Date()): z.input<typeof couponFormSchema> {
  return {
    Code: c?.Code ?? '',
    Product: (c?.Product ?? undefined) as CouponFormValues['Product'],
    MembershipType: (c?.MembershipType ?? undefined) as CouponFormValues['MembershipType'],
    DiscountType: c?.DiscountType ?? 'Lifetime',
    StartDate: c?.StartDate ?? toIsoDate(now),
    EndDate: c?.EndDate ?? null,
    Status: c?.Status ?? 'Active',
  };
}

/** The wire payload: an empty end date is absent. */
export const toCouponPayload = (v: CouponFormValues) => ({
  Code: v.Code.trim(),
  Product: v.Product,
  MembershipType: v.MembershipType,
  DiscountType: v.DiscountType,
  StartDate: v.StartDate,
  EndDate: v.EndDate || null,
});
