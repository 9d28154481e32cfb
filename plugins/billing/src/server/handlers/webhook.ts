import { ApiError, route } from '@portal/server';
import { BILLING_MESSAGES, BillingApi } from '../../contract';
import { billingOf } from '../billing-ref';
import { actorOf } from './context';

/** Authorize.net's events for a held charge the merchant approved or declined. */
const HELD_DECIDED = new Set(['net.authorize.payment.fraud.approved', 'net.authorize.payment.fraud.declined']);
/** Authorize.net's events for a charge given back, by us or by the merchant's staff in the gateway's own screens. */
const GIVEN_BACK = new Set(['net.authorize.payment.void.created', 'net.authorize.payment.refund.created']);

/**
 * Signed webhooks from the card gateway: recurring subscription charges, the merchant's decisions on held charges, and
 * voids and refunds made in the gateway's own screens show up without polling. The signature (HMAC-SHA512 with the
 * merchant's signature key) is checked over the bytes the gateway sent (the endpoint's rawBody): a real gateway's
 * "authAmount":45.00 or its spacing does not survive JSON.parse.
 * A bad signature is a 400 so nothing is recorded; the gateway retries its deliveries.
 */
export const webhookRoutes = [
  route(BillingApi.webhook, {
    access: 'public',
    noFormToken: true,
    handler: async (ctx) => {
      const signature = ctx.req.headers['x-anet-signature'];
      const raw = ctx.rawBody?.toString('utf8') ?? '';
      if (!ctx.services.payments.verifyWebhook(raw, typeof signature === 'string' ? signature : undefined)) {
        await ctx.audit({
          action: 'billing.webhook',
          outcome: 'refused',
          entity: 'webhook',
          entityId: ctx.body.notificationId,
          detail: { reason: 'signature' },
        });
        throw new ApiError(400, BILLING_MESSAGES.badSignature);
      }
      const e = ctx.body;
      if (!e.eventType.startsWith('net.authorize.payment.')) return { Recorded: false };
      const transId = Number(e.payload.id);
      if (!Number.isInteger(transId) || transId <= 0) throw new ApiError(400, 'payload.id: must be a transaction id');
      // The merchant decided a charge the gateway held for review (in the gateway's own screens or through us).
      if (HELD_DECIDED.has(e.eventType) && (await billingOf(ctx).recordHeldDecision(transId, actorOf(ctx)))) return { Recorded: true };
      // A void or refund: recorded when it gives back a charge of ours that no call of ours is recording.
      if (GIVEN_BACK.has(e.eventType)) return { Recorded: await billingOf(ctx).recordGatewayReversal(transId, actorOf(ctx)) };
      if (!e.payload.subscriptionId) return { Recorded: false };
      const recorded = await billingOf(ctx).recordWebhookCharge(
        { notificationId: e.notificationId, eventType: e.eventType, transId, customerProfileId: e.payload.customerProfileId ?? null },
        actorOf(ctx),
      );
      return { Recorded: recorded };
    },
  }),
];
