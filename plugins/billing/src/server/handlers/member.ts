import { route } from '@portal/server';
import { BILLING_MEMBER_ACCESS } from '../../access';
import { BillingApi } from '../../contract';
import { billingOf } from '../billing-ref';
import { described } from '../core';
import { actorOf, memberOf, ownSiteUrl, worded } from './context';
import { checkedCoupon } from './coupon-limit';

/** The member's own billing (spec 01 section 7): every call acts on ctx.memberId only and is audited. */
export const memberRoutes = [
  route(BillingApi.profile, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'billing.profile.read', entity: 'billing_customer', entityId: String(memberId) });
      return billingOf(ctx).profile(memberId);
    },
  }),
  route(BillingApi.cards, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'billing.cards.read', entity: 'billing_customer', entityId: String(memberId) });
      return billingOf(ctx).cards(memberId);
    },
  }),
  route(BillingApi.defaultCard, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'billing.cards.read', entity: 'billing_customer', entityId: String(memberId) });
      return (await billingOf(ctx).cards(memberId)).find((c) => c.IsDefault) ?? null;
    },
  }),
  route(BillingApi.setDefaultCard, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const billing = billingOf(ctx);
      await billing.setDefaultCard(memberId, ctx.body.ProfileId, actorOf(ctx));
      return billing.profile(memberId);
    },
  }),
  route(BillingApi.setSubscriptionCard, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const billing = billingOf(ctx);
      await billing.setSubscriptionCard(memberId, ctx.body.ProfileId, actorOf(ctx));
      return billing.profile(memberId);
    },
  }),
  route(BillingApi.checkCoupon, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const c = await checkedCoupon(ctx, memberId, ctx.body.Code);
      return worded(ctx, { Status: c.Status, IsLifetime: c.IsLifetime, IsVendorLifetime: c.IsVendorLifetime, Message: c.Message });
    },
  }),
  route(BillingApi.saveCoupon, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      // Within the limits on coupon codes first (coupon-limit.ts): over one, a 429 and nothing changes.
      await checkedCoupon(ctx, memberId, ctx.body.Code);
      const r = await billingOf(ctx).applyCoupon(memberId, ctx.body.Code, actorOf(ctx));
      // A valid coupon always gives lifetime (0); an invalid one leaves the chosen type.
      return worded(ctx, { ...r, Type: r.Status === 0 ? 0 : ctx.body.Type });
    },
  }),
  route(BillingApi.start, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      // A code is within the limits on coupon codes first: over one, a 429 and nothing is charged.
      if (ctx.body.Code) await checkedCoupon(ctx, memberId, ctx.body.Code);
      return worded(
        ctx,
        await billingOf(ctx).startSubscription(memberId, { type: ctx.body.Type, code: ctx.body.Code, idempotencyKey: ctx.body.IdempotencyKey }, actorOf(ctx)),
      );
    },
  }),
  route(BillingApi.saveSubscription, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      if (ctx.body.code) await checkedCoupon(ctx, memberId, ctx.body.code);
      const r = await billingOf(ctx).startSubscription(
        memberId,
        { type: ctx.body.key, code: ctx.body.code, idempotencyKey: ctx.body.IdempotencyKey },
        actorOf(ctx),
      );
      return r.StatusString === 'Ok';
    },
  }),
  // A GET that changes data (the first token creates the gateway customer and our billing_customers row): the
  // anti-forgery token is required as for a POST.
  route(BillingApi.token, {
    access: BILLING_MEMBER_ACCESS,
    writes: true,
    handler: async (ctx) => billingOf(ctx).formToken(memberOf(ctx), ownSiteUrl(ctx, ctx.query.returnUrl), ctx.query.paymentProfileId),
  }),
  route(BillingApi.deleteProfile, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const r = await billingOf(ctx).deleteCard(memberOf(ctx), ctx.params.id, actorOf(ctx));
      return { Deactivated: r.deactivated };
    },
  }),
  // A GET that changes data (our cards, a reactivation, a resumed subscription): the anti-forgery token is required.
  route(BillingApi.sync, {
    access: BILLING_MEMBER_ACCESS,
    writes: true,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const billing = billingOf(ctx);
      const { reactivated } = await billing.syncCards(memberId, actorOf(ctx));
      return { ...(await billing.profile(memberId)), Reactivated: reactivated };
    },
  }),
  route(BillingApi.terminate, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => billingOf(ctx).cancelSubscription(memberOf(ctx), actorOf(ctx)),
  }),
  route(BillingApi.transactions, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'billing.transactions.read', entity: 'billing_customer', entityId: String(memberId) });
      // In the member's language: the descriptions the server gives charges itself ('Monthly membership', …).
      return (await billingOf(ctx).transactions(memberId)).map((t) => ({ ...t, Description: t.Description === null ? null : ctx.t(described(t.Description)) }));
    },
  }),

  // Card calls: the member's saved payment cards (masked), read one, make one the default.
  route(BillingApi.cardList, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'billing.cards.read', entity: 'billing_customer', entityId: String(memberId) });
      return billingOf(ctx).cards(memberId);
    },
  }),
  route(BillingApi.cardGet, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      ctx.auditRead({ action: 'billing.card.read', entity: 'billing_card', entityId: String(ctx.params.id) });
      return billingOf(ctx).ownCard(memberId, ctx.params.id);
    },
  }),
  route(BillingApi.cardSave, {
    access: BILLING_MEMBER_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const billing = billingOf(ctx);
      await billing.setDefaultCard(memberId, ctx.body.Id, actorOf(ctx));
      return billing.ownCard(memberId, ctx.body.Id);
    },
  }),
];
