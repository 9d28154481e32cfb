import { createKeySchema, defineEndpoint, idSchema, schemaText, specText, versionedRefSchema } from '@portal/core';
import { z } from 'zod';

/**
 * The coupons contract (spec 02 sections 3, 4, 5, 7 and 9), under the payment service's base address
 * (/config PaymentUrl '/api/payment/'). Dates travel as 'YYYY-MM-DD', DateCreated as an ISO timestamp.
 */

export const PRODUCTS = ['Amethyst', 'CareGuard', 'CareAssist'] as const;
export type Product = (typeof PRODUCTS)[number];
export const MEMBERSHIP_TYPES = ['Monthly Membership', 'Year Membership', 'Lifetime Membership'] as const;
export const DISCOUNT_TYPES = ['Lifetime', 'Months'] as const;
export const COUPON_STATUSES = ['Active', 'Inactive'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

export const COUPON_PAGE_SIZES = [10, 20, 30] as const;
export const COUPON_DEFAULT_PAGE_SIZE = 20;
export const COUPON_SORT_COLUMNS = ['DateCreated', 'Code', 'Product', 'MembershipType', 'DiscountType', 'StartDate', 'EndDate', 'Status', 'ID'] as const;
/** At most this many ids in one bulk action. */
export const MAX_BULK_IDS = 500;
export const MAX_PAGE_INDEX = 10_000;
/** The longest search text the list's search takes (the kit's search box's default limit); a longer one is a 400. */
export const SEARCH_TEXT_MAX_LENGTH = 100;

/** Verbatim (spec 02 section 5). */
export const COUPON_MESSAGES = {
  selectAction: 'Please select action',
  selectCoupons: 'At list one coupon should be specified to perform action',
  duplicateCode: 'A coupon with this code already exists.',
  notFound: 'The coupon was not found.',
  someNotFound: 'Some of the selected coupons no longer exist; nothing was changed.',
  someStale: 'Some of the selected coupons were changed by someone else; nothing was changed. Please reload the list and try again.',
  created: 'The coupon has been created.',
  updated: 'The coupon has been saved.',
  stale: 'The coupon was changed by someone else. Please reload it and try again.',
  endBeforeStart: 'The end date must not be before the start date.',
  activated: 'The selected coupons have been activated.',
  deactivated: 'The selected coupons have been deactivated.',
  deleted: 'The selected coupons have been deleted.',
  /**
   * A delete that selected coupons members' memberships were given with (`codes`: the codes, or `tooMany` for more than
   * IN_USE_NAMED of them); nothing is deleted.
   */
  inUse: 'These coupons are in use by members and cannot be deleted: {{codes}}. Deactivate them instead; nothing was deleted.',
  tooMany: '{{codes}} and {{more}} more',
  /** An edit that changes the code (not only its case) of a coupon members' memberships were given with; nothing is saved. */
  codeInUse: 'This coupon is in use by members, so its code cannot be changed; nothing was saved. Add a new coupon with the new code instead.',
} as const;
/** The most codes a refused delete names; the rest are counted ('… and 12 more'). */
export const IN_USE_NAMED = 10;

/** Messages of the coupon check (the billing page shows them as the coupon error or success). */
export const COUPON_CHECK_MESSAGES = {
  valid: 'The coupon is valid: your membership is lifetime.',
  notFound: 'The coupon code is not valid.',
  inactive: 'The coupon is not active.',
  notStarted: 'The coupon is not valid yet.',
  expired: 'The coupon has expired.',
  otherProduct: 'The coupon is not valid for this program.',
} as const;
/** Status of a coupon check: 0 is valid (spec 01 section 3). */
export const CouponCheckStatus = { Valid: 0, NotFound: 1, Inactive: 2, NotStarted: 3, Expired: 4, OtherProduct: 5 } as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const daySchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v),
  z
    .string({ error: 'is required' })
    .regex(DATE, { message: 'must be a date as YYYY-MM-DD', abort: true })
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 2999;
    }, 'is not a valid calendar date'),
);
const optDay = z.preprocess((v) => (v === '' ? null : v), daySchema.nullish());

/** The longest code: a search for longer text cannot match one (the list's search box stops there). */
export const COUPON_CODE_MAX_LENGTH = 40;

/** A coupon code: letters, digits, dash and underscore; unique ignoring case. */
export const codeSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(COUPON_CODE_MAX_LENGTH, 'must be at most 40 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may hold letters, digits, - and _ only');

export const couponSchema = z.object({
  ID: z.number().int(),
  Code: z.string(),
  Product: z.enum(PRODUCTS),
  MembershipType: z.enum(MEMBERSHIP_TYPES),
  DiscountType: z.enum(DISCOUNT_TYPES),
  StartDate: z.string(),
  EndDate: z.string().nullable(),
  Status: z.enum(COUPON_STATUSES),
  DateCreated: z.iso.datetime(),
  Version: z.number().int(),
});
export type Coupon = z.infer<typeof couponSchema>;
/**
 * One coupon as support's view reads it (GET support/coupon/{id}): ours beside the spec's fields, UsedBy, how many
 * members' memberships were given with it (counted by the plugins that record codes: billing).
 */
export const couponDetailSchema = couponSchema.extend({ UsedBy: z.number().int().min(0) });
export type CouponDetail = z.infer<typeof couponDetailSchema>;

const couponFields = {
  Code: codeSchema,
  Product: z.enum(PRODUCTS, { error: schemaText('must be one of {{values}}', { values: PRODUCTS.join(', ') }) }),
  MembershipType: z.enum(MEMBERSHIP_TYPES, { error: schemaText('must be one of {{values}}', { values: MEMBERSHIP_TYPES.join(', ') }) }),
  DiscountType: z.enum(DISCOUNT_TYPES, { error: schemaText('must be one of {{values}}', { values: DISCOUNT_TYPES.join(', ') }) }),
  StartDate: daySchema,
  EndDate: optDay,
};
const endNotBeforeStart = (v: { StartDate: string; EndDate?: string | null }) => !v.EndDate || v.EndDate >= v.StartDate;

/**
 * A new coupon. IdempotencyKey (ours, not in the spec; optional): one key per submission of the create form, sent again
 * unchanged when the call is retried, so a create whose answer was lost adds its coupon once (the same key with another
 * coupon is a 409).
 */
export const couponCreateSchema = z
  .object({ ...couponFields, IdempotencyKey: createKeySchema.nullish() })
  .refine(endNotBeforeStart, { message: COUPON_MESSAGES.endBeforeStart, path: ['EndDate'] });
export type CouponCreate = z.input<typeof couponCreateSchema>;
export const couponUpdateSchema = z
  .object({ ...couponFields, ID: idSchema, Version: idSchema, Status: z.enum(COUPON_STATUSES, { error: 'must be Active or Inactive' }) })
  .refine(endNotBeforeStart, { message: COUPON_MESSAGES.endBeforeStart, path: ['EndDate'] });
export type CouponUpdate = z.input<typeof couponUpdateSchema>;

export const couponSearchSchema = z.object({
  PageIndex: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').max(MAX_PAGE_INDEX).default(0),
  PageSize: z.coerce
    .number()
    .int()
    .refine((n) => (COUPON_PAGE_SIZES as readonly number[]).includes(n), schemaText('must be one of {{values}}', { values: COUPON_PAGE_SIZES.join(', ') }))
    .default(COUPON_DEFAULT_PAGE_SIZE),
  SortColumn: z.preprocess((v) => (v === '' || v == null ? undefined : v), z.enum(COUPON_SORT_COLUMNS).default('DateCreated')),
  SortOrder: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() || undefined : (v ?? undefined)), z.enum(['ASC', 'DESC']).default('DESC')),
  Query: z
    .object({
      /**
       * Part of the code, any case. Taken as sent up to 100 characters (the kit's search box limit elsewhere): text
       * longer than a code (COUPON_CODE_MAX_LENGTH) finds none, rather than being cut to text the user did not search.
       */
      SearchString: z
        .string()
        .trim()
        .max(SEARCH_TEXT_MAX_LENGTH, schemaText('must be at most {{max}} characters', { max: SEARCH_TEXT_MAX_LENGTH }))
        .optional(),
      Status: z.enum(COUPON_STATUSES).optional(),
      Product: z.enum(PRODUCTS).optional(),
    })
    .default({}),
});
export type CouponSearch = z.input<typeof couponSearchSchema>;

/** One coupon of a bulk action: its id, or its id with the Version the caller saw (the list sends the Versions it showed). */
export const couponRefSchema = versionedRefSchema("must be a coupon id, or an object with the coupon's ID and Version");

/** A bulk action's coupons: at least one (message verbatim). */
export const couponIdsSchema = z
  .array(couponRefSchema, { error: specText(COUPON_MESSAGES.selectCoupons) })
  .min(1, specText(COUPON_MESSAGES.selectCoupons))
  .max(MAX_BULK_IDS, schemaText('at most {{max}} coupons at once', { max: MAX_BULK_IDS }));

export const couponPageSchema = z.object({ Items: z.array(couponSchema), ItemCount: z.number().int() });
export const bulkResultSchema = z.object({ Count: z.number().int(), Message: z.string() });

export const CouponsApi = {
  get: defineEndpoint({ method: 'GET', path: '/api/payment/support/coupon/:id', params: z.object({ id: idSchema }), response: couponDetailSchema }),
  search: defineEndpoint({ method: 'POST', path: '/api/payment/support/coupons/search', body: couponSearchSchema, response: couponPageSchema }),
  update: defineEndpoint({ method: 'POST', path: '/api/payment/support/coupon', body: couponUpdateSchema, response: couponSchema }),
  create: defineEndpoint({ method: 'POST', path: '/api/payment/support/coupon/create', body: couponCreateSchema, response: couponSchema }),
  remove: defineEndpoint({ method: 'POST', path: '/api/payment/support/coupons/delete', body: couponIdsSchema, response: bulkResultSchema }),
  activate: defineEndpoint({ method: 'POST', path: '/api/payment/support/coupons/activate', body: couponIdsSchema, response: bulkResultSchema }),
  deactivate: defineEndpoint({ method: 'POST', path: '/api/payment/support/coupons/deactivate', body: couponIdsSchema, response: bulkResultSchema }),
} as const;
