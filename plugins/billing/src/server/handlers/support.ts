import { ClaimStatus } from '@portal/core';
import { claimsService } from '@portal/plugin-claims/service';
import { ApiError, route } from '@portal/server';
import { BILLING_SUPPORT_ACCESS } from '../../access';
import { BILLING_MESSAGES, BillingApi, PREPULL_DESCRIPTION, toCents } from '../../contract';
import { billingOf } from '../billing-ref';
import { actorOf, ownSiteUrl, worded } from './context';
import { checkedCoupon } from './coupon-limit';

/** Bills that will not be paid: a prepull may not name one. */
const CLOSED_BILL_STATUSES: readonly number[] = [ClaimStatus.Void, ClaimStatus.Denied];

/** The payment service's support calls (spec 02 section 7): staff act on the member named in the body. */
export const supportRoutes = [
  route(BillingApi.supportSubscription, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      const billing = billingOf(ctx);
      ctx.auditRead({ action: 'billing.profile.read', entity: 'billing_customer', entityId: String(ctx.body.MemberId), memberId: ctx.body.MemberId });
      return { ...(await billing.profile(ctx.body.MemberId)), Transactions: await billing.transactions(ctx.body.MemberId) };
    },
  }),
  route(BillingApi.supportSubscriptionUpdate, {
    access: BILLING_SUPPORT_ACCESS,
    // The new membership starts first; the current one (as read when the call came) ends only once it did: no card or a
    // decline keeps it, and one canceled or replaced meanwhile is a 409. No membership: the new one starts.
    handler: async (ctx) =>
      worded(ctx, await billingOf(ctx).changeSubscription(ctx.body.MemberId, { type: ctx.body.Type, idempotencyKey: ctx.body.IdempotencyKey }, actorOf(ctx))),
  }),
  route(BillingApi.supportSubscriptionCancel, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => billingOf(ctx).cancelSubscription(ctx.body.MemberId, actorOf(ctx)),
  }),
  route(BillingApi.supportDefaultCard, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      const billing = billingOf(ctx);
      await billing.setDefaultCard(ctx.body.MemberId, ctx.body.ProfileId, actorOf(ctx));
      return billing.profile(ctx.body.MemberId);
    },
  }),
  route(BillingApi.supportSetCoupon, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      // Limited as a member's codes are, per staff user (coupon-limit.ts): over the limit, 429 and nothing applied.
      if (ctx.user) await checkedCoupon(ctx, ctx.body.MemberId, ctx.body.CouponCode, ctx.user.id);
      return worded(ctx, await billingOf(ctx).applyCoupon(ctx.body.MemberId, ctx.body.CouponCode, actorOf(ctx), 'support'));
    },
  }),
  // A GET that changes data (creates the member's gateway customer): the anti-forgery token is required.
  route(BillingApi.supportToken, {
    access: BILLING_SUPPORT_ACCESS,
    writes: true,
    handler: async (ctx) => billingOf(ctx).formToken(ctx.params.memberId, ownSiteUrl(ctx, ctx.query.returnUrl), ctx.query.paymentProfileId),
  }),
  route(BillingApi.supportProfile, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      ctx.auditRead({ action: 'billing.profile.read', entity: 'billing_customer', entityId: String(ctx.body.MemberId), memberId: ctx.body.MemberId });
      return billingOf(ctx).profile(ctx.body.MemberId);
    },
  }),
  route(BillingApi.supportSync, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      const billing = billingOf(ctx);
      const { reactivated } = await billing.syncCards(ctx.body.MemberId, actorOf(ctx));
      return { ...(await billing.profile(ctx.body.MemberId)), Reactivated: reactivated };
    },
  }),
  route(BillingApi.transactionSync, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => ({ Count: await billingOf(ctx).syncTransactions(ctx.body.MemberId, actorOf(ctx)) }),
  }),
  route(BillingApi.refund, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => worded(ctx, await billingOf(ctx).refund(ctx.body.TransactionID, actorOf(ctx))),
  }),
  route(BillingApi.void, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => worded(ctx, await billingOf(ctx).voidTransaction(ctx.body.TransactionID, actorOf(ctx))),
  }),
  route(BillingApi.paNumber, {
    access: BILLING_SUPPORT_ACCESS,
    // With the number the caller saw, one someone else stored meanwhile is kept, answered, and named not saved.
    handler: async (ctx) => {
      const stored = await billingOf(ctx).setPaNumber(ctx.body.TransactionID, ctx.body.PANumber, actorOf(ctx), ctx.body.PreviousPANumber);
      return { PANumber: stored, Message: ctx.t(stored === ctx.body.PANumber ? BILLING_MESSAGES.paNumberSaved : BILLING_MESSAGES.paNumberNotSaved) };
    },
  }),
  route(BillingApi.capture, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      const billing = billingOf(ctx);
      const memberId = await billing.memberOfCustomer(ctx.body.CustomerProfileId);
      if (memberId === null) throw new ApiError(404, BILLING_MESSAGES.cardNotFound);
      return worded(ctx, await billing.capture(memberId, ctx.body.PaymentProfileId, toCents(ctx.body.Amount), actorOf(ctx), ctx.body.IdempotencyKey));
    },
  }),
  route(BillingApi.charge, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      const billing = billingOf(ctx);
      const memberId = await billing.memberOfCustomer(ctx.body.customerId);
      if (memberId === null) throw new ApiError(404, BILLING_MESSAGES.cardNotFound);
      const r = await billing.chargeCard(
        memberId,
        {
          paymentProfileId: ctx.body.profileId,
          amountCents: toCents(ctx.body.amount),
          description: ctx.body.description,
          idempotencyKey: ctx.body.IdempotencyKey,
        },
        actorOf(ctx),
      );
      return worded(ctx, r);
    },
  }),
  route(BillingApi.prepull, {
    access: BILLING_SUPPORT_ACCESS,
    handler: async (ctx) => {
      // A prepull for a bill names one of the member's own bills (it shows in that member's transactions), and one that
      // may still be paid: a Void or Denied bill is closed, so nothing is authorized against it.
      if (ctx.body.ClaimID != null) {
        const [bill] = await ctx.use(claimsService).billStatuses(ctx.body.MemberId, [ctx.body.ClaimID]);
        if (!bill) throw new ApiError(400, BILLING_MESSAGES.notMembersBill);
        if (CLOSED_BILL_STATUSES.includes(bill.ClaimStatusID)) throw new ApiError(400, BILLING_MESSAGES.closedBill);
      }
      const r = await billingOf(ctx).authorize(
        ctx.body.MemberId,
        {
          amountCents: toCents(ctx.body.Amount),
          description: ctx.body.Description || PREPULL_DESCRIPTION,
          claimId: ctx.body.ClaimID,
          idempotencyKey: ctx.body.IdempotencyKey,
        },
        actorOf(ctx),
      );
      return worded(ctx, r);
    },
  }),
];
