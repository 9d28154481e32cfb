import { defineEndpoint, idSchema, moneyFromText, msg } from '@portal/core';
import { z } from 'zod';

/**
 * The payment service (spec 01 section 7, spec 02 section 7) under /config's PaymentUrl '/api/payment/', and the
 * card calls under /api/card/. Money travels as dollars with 2 decimals and is integer cents inside.
 */

/** Membership types (spec 01 section 3): key 1 monthly, 12 yearly, 0 lifetime. */
export const MembershipType = { Monthly: 1, Yearly: 12, Lifetime: 0 } as const;
export const MEMBERSHIP_KEYS = [1, 12, 0] as const;
export type MembershipKey = (typeof MEMBERSHIP_KEYS)[number];
/** Prices in cents (spec 01 section 9): monthly $12, yearly $125, lifetime $1,000. */
export const PRICES_CENTS: Readonly<Record<MembershipKey, number>> = { 1: 1_200, 12: 12_500, 0: 100_000 };
/** Default description of a prepull (spec 02 section 9). */
export const PREPULL_DESCRIPTION = 'Charge for future transactions';
/** How long a page waits for a card saved at the gateway to show up in the profile (spec 01 section 9): 10 seconds. */
export const CARD_SAVE_WAIT_MS = 10_000;
/** The card-save wait of a brand: its manifest's `cardSaveWaitMs` (the spec's override), else the default. */
export const cardSaveWaitMs = (brand: { cardSaveWaitMs?: number | undefined }): number => brand.cardSaveWaitMs ?? CARD_SAVE_WAIT_MS;
/** Largest single charge accepted: $100,000. */
export const MAX_CHARGE_CENTS = 10_000_000;

export const BILLING_MESSAGES = {
  noMember: 'This needs a member account: choose a member to act on behalf of.',
  noCard: 'Please add a card first.',
  cardNotFound: 'The card was not found.',
  notMembersBill: "body.ClaimID: the bill is not one of this member's bills.",
  closedBill: 'body.ClaimID: the bill is Void or Denied: nothing can be charged for it.',
  unavailable: 'The payment service is not available right now. Please try again later.',
  charged: 'The payment was successful.',
  declined: 'The payment was declined.',
  refunded: 'The transaction has been refunded.',
  voided: 'The transaction has been voided.',
  captured: 'The authorized amount has been captured.',
  authorized: 'The amount has been authorized.',
  transactionNotFound: 'The transaction was not found.',
  nothingToCapture: 'There is no authorized transaction on this card to capture.',
  subscribed: 'Your subscription has been started.',
  lifetimeByCoupon: 'Your coupon has been applied: your membership is lifetime.',
  alreadySubscribed: 'The membership is already active.',
  subscriptionCanceled: 'The subscription has been canceled.',
  noSubscription: 'There is no subscription.',
  subscriptionChanged: 'The subscription was changed meanwhile. Please check it and try again.',
  subscriptionChangedNotCanceled: 'The subscription was changed meanwhile and has not been canceled. Please check it and cancel it again if you still want to.',
  subscriptionChangedNotStarted:
    'The subscription was changed or canceled meanwhile, so the new plan was not started and nothing was charged. Please check it and try again.',
  subscriptionCard: 'The card now pays the subscription.',
  defaultCard: 'The default card has been changed.',
  cardDeleted: 'The card has been deleted.',
  couponSaved: 'The coupon has been saved.',
  paNumberSaved: 'The PA number has been saved.',
  paNumberNotSaved: 'The PA number was not saved: the stored number differs from the one submitted.',
  notChargeable: 'Only a declined or pending transaction can be charged.',
  membershipNotChargeable: "A membership payment cannot be charged here: change the member's subscription to start or resume the membership.",
  notCapturable: 'Only an authorized transaction can be captured.',
  keyReused: 'This request key was already used for a different payment.',
  startInProgress: 'A subscription is already being started for this member. Please try again in a moment.',
  couponWhileHeld: 'A payment for a membership is being reviewed. A coupon can be applied once that payment is approved or declined.',
  heldForTerminated: 'The member is terminated: a membership payment held for review is not charged, and no membership is started.',
  /** A terminated member's own start, plan or coupon (the member's pages, or staff acting for the member there). */
  terminated: 'Your membership is terminated, so no plan can be started or changed and no coupon applied. Reactivate it on your profile first.',
  /** Support's change of plan, coupon, prepull or charge for a terminated member: refused before the gateway is asked. */
  memberTerminated: "The member's membership is terminated: this was refused, and nothing was charged, authorized or changed. Reactivate the membership first.",
  badReturnUrl: 'returnUrl must be an address of this site.',
  badSignature: 'The webhook signature is not valid.',
} as const;

/** The 429 of a member's coupon call over a limit on coupon codes (server/throttle.ts): the same for a valid code. */
export const tooManyCouponCodes = (minutes: number) => msg('Too many coupon codes were tried. Please try again in {{minutes}} minute(s).', { minutes });

/** An amount in dollars as the web sends it (a number or its text), more than 0, at most 2 decimals. */
export const money = z.preprocess(
  moneyFromText,
  z
    .number({ error: 'must be an amount' })
    .finite('must be an amount')
    .positive('must be more than 0')
    .max(MAX_CHARGE_CENTS / 100, 'is too large')
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'must have at most 2 decimals'),
);
export const toCents = (dollars: number): number => Math.round(dollars * 100);
export const fromCents = (cents: number): number => Math.round(cents) / 100;

const membershipKey = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.union([z.literal(1), z.literal(12), z.literal(0)], { error: 'must be 1 (monthly), 12 (yearly) or 0 (lifetime)' }),
);
const code = z.string().trim().max(40, 'must be at most 40 characters');
/**
 * A client-chosen key that makes a retried money call move money once: required on every call that charges,
 * authorizes, captures, refunds or voids (a retry without one could not be told from a new payment). One key per
 * payment, sent again unchanged when the call is retried; the web makes one per press.
 */
export const idempotencyKey = z
  .string({ error: 'is required: one key of your own per payment, sent again unchanged when the call is retried' })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8 to 100 letters, digits or - _ . :');
const returnUrl = z.string().trim().url('must be an address').max(2000);
/**
 * The hosted card form's token (spec 01 section 7): with paymentProfileId, the gateway's edit-payment form for that
 * saved card (its expiry, or a new number on the same profile); without, the add-payment form.
 */
const formTokenQuery = z.object({ returnUrl, paymentProfileId: idSchema.optional() });

export const cardProfileSchema = z.object({
  ProfileId: z.number().int(),
  IsSubscription: z.boolean(),
  IsDefault: z.boolean(),
  /** Masked: 'XXXX1111'. The full number never reaches our API. */
  CardNumber: z.string(),
  CardType: z.string(),
  /** MM/YYYY. */
  Expiration: z.string(),
});
export type CardProfile = z.infer<typeof cardProfileSchema>;

export const billingProfileSchema = z.object({
  Profiles: z.array(cardProfileSchema),
  CustomerId: z.number().int().nullable(),
  SubscriptionId: z.number().int().nullable(),
  SubscriptionType: z.union([z.literal(1), z.literal(12), z.literal(0)]).nullable(),
  /** 'active', 'canceled', 'suspended', 'lifetime' or null (none yet). */
  SubscriptionStatus: z.string().nullable(),
  /** All cards deleted: the membership is deactivated until a card is added. */
  IsDeactivated: z.boolean(),
  CouponCode: z.string().nullable(),
  /**
   * Not in the spec: the plan whose first payment the gateway holds for review (the membership starts when the merchant
   * approves it; another start meanwhile answers that payment), else null.
   */
  HeldSubscriptionType: z.union([z.literal(1), z.literal(12), z.literal(0)]).nullable(),
  /**
   * Not in the spec: for a canceled monthly or yearly membership, when the period last paid for ends (ISO date-time:
   * its latest charged payment plus the plan's period), else null.
   */
  PaidThrough: z.string().nullable(),
  /**
   * Not in the spec: whether the membership is terminated (its termination date has come). While it is, no plan can be
   * started or changed, no coupon applied and support neither charges nor authorizes (409); cards, refunds and voids work.
   */
  IsTerminated: z.boolean(),
  /** Not in the spec: when the membership was terminated (ISO date-time), while it is; else null. */
  TerminationDate: z.string().nullable(),
});
export type BillingProfile = z.infer<typeof billingProfileSchema>;

export const couponCheckSchema = z.object({ Status: z.number().int(), IsLifetime: z.boolean(), IsVendorLifetime: z.boolean(), Message: z.string() });
export const moneyResultSchema = z.object({
  /** 'Ok' when money moved as asked, else 'Error' (spec 02 section 8). */
  StatusString: z.enum(['Ok', 'Error']),
  Message: z.string(),
  TransactionID: z.number().int().nullable(),
});
export type MoneyResult = z.infer<typeof moneyResultSchema>;
export const transactionSchema = z.object({
  TransactionID: z.number().int(),
  Status: z.string(),
  Kind: z.string(),
  Amount: z.number(),
  Description: z.string().nullable(),
  ProviderTransactionID: z.number().int().nullable(),
  PANumber: z.string().nullable(),
  ClaimID: z.number().int().nullable(),
  DateCreated: z.iso.datetime(),
});
export type BillingTransaction = z.infer<typeof transactionSchema>;

const memberBody = z.object({ MemberId: idSchema });
/**
 * A refund or void names the charge it reverses: it happens once per charge whatever the key (the gateway's key is the
 * charge's own), and takes the IdempotencyKey every money call requires.
 */
const refBody = z.object({
  CustomerID: idSchema.optional(),
  ProfileID: idSchema.optional(),
  TransactionID: idSchema,
  ProviderTransactionID: idSchema.optional(),
  IdempotencyKey: idempotencyKey,
});

/** A charge's PA number (2 to 40 characters after trimming; the spec's GET path carries it too). */
export const paNumberSchema = z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters');
/**
 * A PA-number save: the charge and the number (the spec's TransactionID and PANumber) and, ours and optional, the
 * number the caller saw (null for none). When sent, the number is stored only while the stored one is still that;
 * otherwise the stored one is answered, and differs from the one submitted.
 */
export const paNumberBodySchema = z.object({
  TransactionID: idSchema,
  PANumber: paNumberSchema,
  PreviousPANumber: z.string().max(40, 'must be at most 40 characters').nullable().optional(),
});

export const BillingApi = {
  // member calls (spec 01 section 7)
  profile: defineEndpoint({ method: 'GET', path: '/api/payment/customer/profile', response: billingProfileSchema }),
  cards: defineEndpoint({ method: 'GET', path: '/api/payment/customer/cards', response: z.array(cardProfileSchema) }),
  defaultCard: defineEndpoint({ method: 'GET', path: '/api/payment/customer/default', response: cardProfileSchema.nullable() }),
  setDefaultCard: defineEndpoint({
    method: 'POST',
    path: '/api/payment/customer/defaultCard',
    body: z.object({ ProfileId: idSchema }),
    response: billingProfileSchema,
  }),
  setSubscriptionCard: defineEndpoint({
    method: 'POST',
    path: '/api/payment/customer/subscription',
    body: z.object({ ProfileId: idSchema }),
    response: billingProfileSchema,
  }),
  saveCoupon: defineEndpoint({
    method: 'POST',
    path: '/api/payment/customer/coupon',
    body: z.object({ Type: membershipKey, Code: code }),
    response: couponCheckSchema.extend({ Type: z.number().int() }),
  }),
  checkCoupon: defineEndpoint({ method: 'POST', path: '/api/payment/subscription/check-coupon', body: z.object({ Code: code }), response: couponCheckSchema }),
  start: defineEndpoint({
    method: 'POST',
    path: '/api/payment/subscription/start',
    body: z.object({ Type: membershipKey, Code: code.optional(), IdempotencyKey: idempotencyKey }),
    response: moneyResultSchema.extend({ SubscriptionType: z.number().int().nullable() }),
  }),
  token: defineEndpoint({
    method: 'GET',
    path: '/api/payment/token',
    query: formTokenQuery,
    response: z.object({ Token: z.string(), Url: z.string() }),
  }),
  deleteProfile: defineEndpoint({
    method: 'POST',
    path: '/api/payment/customer/profile/delete/:id',
    params: z.object({ id: idSchema }),
    response: z.object({ Deactivated: z.boolean() }),
  }),
  sync: defineEndpoint({ method: 'GET', path: '/api/payment/customer/sync', response: billingProfileSchema.extend({ Reactivated: z.boolean() }) }),
  terminate: defineEndpoint({ method: 'POST', path: '/api/payment/customer/terminate', response: billingProfileSchema }),
  saveSubscription: defineEndpoint({
    method: 'POST',
    path: '/api/payment/save-subscription',
    body: z.object({ code: code.optional(), key: membershipKey, IdempotencyKey: idempotencyKey }),
    response: z.boolean(),
  }),
  transactions: defineEndpoint({ method: 'GET', path: '/api/payment/customer/transactions', response: z.array(transactionSchema) }),

  // card calls
  cardList: defineEndpoint({ method: 'GET', path: '/api/card/list', response: z.array(cardProfileSchema) }),
  cardGet: defineEndpoint({ method: 'GET', path: '/api/card/:id', params: z.object({ id: idSchema }), response: cardProfileSchema }),
  cardSave: defineEndpoint({ method: 'POST', path: '/api/card', body: z.object({ Id: idSchema, IsDefault: z.literal(true) }), response: cardProfileSchema }),

  // support calls (spec 02 section 7)
  supportSubscription: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/subscription',
    body: memberBody,
    response: billingProfileSchema.extend({ Transactions: z.array(transactionSchema) }),
  }),
  supportSubscriptionUpdate: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/subscription/update',
    body: memberBody.extend({ Type: membershipKey, IdempotencyKey: idempotencyKey }),
    response: moneyResultSchema.extend({ SubscriptionType: z.number().int().nullable() }),
  }),
  supportSubscriptionCancel: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/subscription/cancel',
    body: memberBody,
    response: billingProfileSchema,
  }),
  supportDefaultCard: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/defaultcard/update',
    body: memberBody.extend({ ProfileId: idSchema }),
    response: billingProfileSchema,
  }),
  supportSetCoupon: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/setcoupon',
    body: memberBody.extend({ CouponCode: code.min(1, 'is required') }),
    response: couponCheckSchema,
  }),
  supportToken: defineEndpoint({
    method: 'GET',
    path: '/api/payment/support/token/:memberId',
    params: z.object({ memberId: idSchema }),
    query: formTokenQuery,
    response: z.object({ Token: z.string(), Url: z.string() }),
  }),
  supportProfile: defineEndpoint({ method: 'POST', path: '/api/payment/support/profile', body: memberBody, response: billingProfileSchema }),
  /** Support's card screen: reads the member's cards back from the gateway after the hosted form saved one. */
  supportSync: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/sync',
    body: memberBody,
    response: billingProfileSchema.extend({ Reactivated: z.boolean() }),
  }),
  transactionSync: defineEndpoint({ method: 'POST', path: '/api/payment/transaction/sync', body: memberBody, response: z.object({ Count: z.number().int() }) }),
  refund: defineEndpoint({ method: 'POST', path: '/api/payment/support/refund', body: refBody, response: moneyResultSchema }),
  void: defineEndpoint({ method: 'POST', path: '/api/payment/support/void', body: refBody, response: moneyResultSchema }),
  paNumber: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/pa-number',
    body: paNumberBodySchema,
    response: z.object({ PANumber: z.string(), Message: z.string() }),
  }),
  /**
   * Captures the card's newest authorization. The key makes a retry answer what the first did, never capturing the next
   * authorization; the same key with another card or amount is a 409.
   */
  capture: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/capture',
    body: z.object({ CustomerProfileId: idSchema, PaymentProfileId: idSchema, Amount: money, IdempotencyKey: idempotencyKey }),
    response: moneyResultSchema,
  }),
  charge: defineEndpoint({
    method: 'POST',
    path: '/api/payment/charge',
    body: z.object({
      customerId: idSchema,
      profileId: idSchema,
      amount: money,
      description: z.string().trim().max(255).optional(),
      IdempotencyKey: idempotencyKey,
    }),
    response: moneyResultSchema,
  }),
  prepull: defineEndpoint({
    method: 'POST',
    path: '/api/payment/support/prepull',
    body: memberBody.extend({
      Amount: money,
      Description: z.string().trim().max(255).optional(),
      ClaimID: idSchema.optional(),
      IdempotencyKey: idempotencyKey,
    }),
    response: moneyResultSchema,
  }),

  /** Signed webhooks from the card gateway (X-ANET-Signature); public, the signature is the credential. */
  webhook: defineEndpoint({
    method: 'POST',
    path: '/api/payment/webhook',
    // The signature is over the bytes the gateway sent ("authAmount":45.00 parses to 45).
    rawBody: true,
    body: z.object({
      notificationId: z.string().min(1).max(100),
      eventType: z.string().min(1).max(200),
      eventDate: z.string().max(40),
      webhookId: z.string().max(40).optional(),
      payload: z.object({
        responseCode: z.number().int(),
        id: z.string().max(40),
        subscriptionId: z.string().max(40).nullable().optional(),
        customerProfileId: z.number().int().nullable().optional(),
        paymentProfileId: z.number().int().nullable().optional(),
        authAmount: z.number(),
        message: z.string().max(500).optional(),
      }),
    }),
    response: z.object({ Recorded: z.boolean() }),
  }),
} as const;
