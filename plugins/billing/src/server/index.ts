import { couponsService } from '@portal/plugin-coupons/service';
import { brandSiteAddress, defineServerPlugin, type KernelServices, type SqlClient } from '@portal/server';
import { CARD_FORM_PAGES } from '../access';
import { type BillingActor, type BillingService, billingService } from '../service';
import { type Billing, HELD_TERMINATED_JOB, type HeldTerminatedJob, makeBilling } from './core';
import { couponUsage } from './coupon-usage';
import { memberRoutes } from './handlers/member';
import { supportRoutes } from './handlers/support';
import { webhookRoutes } from './handlers/webhook';
// The Spanish of every message this server side sends (errors, texts in results, receipts) and of the gateway's
// decline and refusal texts it relays, keyed by the English text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { migrations } from './migrations';
import { webhookUrlFrom } from './webhook-url';

/** Billing's work outside a request (the kernel's jobs, its own): audited as 'system', receipts signed by the member's brand. */
const systemActor = (services: KernelServices): BillingActor => ({
  audit: (entry, tx?: SqlClient) => services.audit.write({ ...entry, actorName: 'system' }, tx),
  brand: null,
});

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
  init: async ({ use, database, services }) => {
    use(couponsService).addCouponUsage(couponUsage(database.sql));
    // A terminated member's approved first payment whose give-back failed (the gateway unreachable, a refusal): the
    // rest is finished by this job, queued with the failure's audit. Eight retries, a minute doubled each time (with
    // jitter: 1-2 min, then 2-4, ... 128-256 min), so about 4 to 8.5 hours in all: a gateway outage is outlasted, and
    // a void the batch's settlement overtook meanwhile becomes a refund. The last failure is audited for support.
    await services.jobs.define<HeldTerminatedJob>(
      HELD_TERMINATED_JOB,
      (job, run) => (use(billingService) as Billing).finishHeldForTerminated(job, run, systemActor(services)),
      // One waiting job per charge: a second send while one waits is dropped (the job is safe to run again anyway).
      { retryLimit: 8, retryDelay: 60, retryBackoff: true, policy: 'short' },
    );
  },
  // A membership that ended: the gateway stops renewing its subscription (the kernel's member.terminated job).
  onMemberTerminated: async (memberId, { use, services }) => {
    await (use(billingService) as Billing).cancelRenewals(memberId, systemActor(services));
  },
  // A membership reactivated: the one the termination canceled comes back for the period already paid for, without a
  // new charge (the kernel's member.reactivated job).
  onMemberReactivated: async (memberId, { use, services }) => {
    await (use(billingService) as Billing).restoreAfterReactivation(memberId, systemActor(services));
  },
  migrations,
  // The billing pages embed the gateway's hosted card form: their CSP frame-src names only the gateway's origin.
  framePages: { paths: CARD_FORM_PAGES, origins: (services) => [services.payments.formOrigin] },
  // Their gateway failures are logged on their requests' loggers: each takes the service through billingOf.
  routes: [...memberRoutes, ...supportRoutes, ...webhookRoutes],
  messages: { es },
});
