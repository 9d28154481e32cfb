import { couponsService } from '@portal/plugin-coupons/service';
import { brandSiteAddress, defineServerPlugin, type ServerRoute, type SqlClient } from '@portal/server';
import { CARD_FORM_PAGES } from '../access';
import { type BillingActor, type BillingService, billingService } from '../service';
import { type Billing, makeBilling, withRequestLog } from './core';
import { couponUsage } from './coupon-usage';
import { memberRoutes } from './handlers/member';
import { supportRoutes } from './handlers/support';
import { webhookRoutes } from './handlers/webhook';
// The Spanish of every message this server side sends (errors, texts in results, receipts) and of the gateway's
// decline and refusal texts it relays, keyed by the English text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { migrations } from './migrations';
import { webhookUrlFrom } from './webhook-url';

/** A billing route whose gateway failures are logged on its request's logger (see withRequestLog). */
const logged = (r: ServerRoute): ServerRoute => ({ ...r, handler: (ctx) => withRequestLog(ctx.req.log, () => r.handler(ctx)) });

export default defineServerPlugin<BillingService>({
  id: 'billing',
  // Coupons for subscriptions; claims to check that a prepull's bill is the member's.
  dependsOn: ['claims', 'coupons'],
  provides: {
    ref: billingService,
    // Where the gateway sends its webhooks: PAYMENT_WEBHOOK_URL, else the staff site's public address (SITE_ADDRESS),
    // else the staff site on this machine; a PAYMENT_WEBHOOK_URL that is no absolute http(s) address stops the start.
    // Receipts are dated with the business's day (BUSINESS_TIME_ZONE).
    create: ({ services, database, config, use }) =>
      makeBilling(
        services,
        database,
        use(couponsService),
        webhookUrlFrom(process.env, `${brandSiteAddress(config, 'staff')}/api/payment/webhook`),
        config.businessTimeZone,
      ),
  },
  // The coupons members' memberships were given with are in use: the coupons plugin refuses to delete them.
  init: ({ use, database }) => {
    use(couponsService).addCouponUsage(couponUsage(database.sql));
  },
  // A membership that ended: the gateway stops renewing its subscription (the kernel's member.terminated job).
  onMemberTerminated: async (memberId, { use, services }) => {
    const system = {
      audit: (entry: Parameters<BillingActor['audit']>[0], tx?: SqlClient) => services.audit.write({ ...entry, actorName: 'system' }, tx),
      brand: null,
    };
    await (use(billingService) as Billing).cancelRenewals(memberId, system);
  },
  // A membership reactivated: the one the termination canceled comes back for the period already paid for, without a
  // new charge (the kernel's member.reactivated job).
  onMemberReactivated: async (memberId, { use, services }) => {
    const system = {
      audit: (entry: Parameters<BillingActor['audit']>[0], tx?: SqlClient) => services.audit.write({ ...entry, actorName: 'system' }, tx),
      brand: null,
    };
    await (use(billingService) as Billing).restoreAfterReactivation(memberId, system);
  },
  migrations,
  // The billing pages embed the gateway's hosted card form: their CSP frame-src names only the gateway's origin.
  framePages: { paths: CARD_FORM_PAGES, origins: (services) => [services.payments.formOrigin] },
  routes: [...memberRoutes, ...supportRoutes, ...webhookRoutes].map(logged),
  messages: { es },
});
