import type { ServiceRef } from '@portal/core';
import type { RouteContext } from '@portal/server';
import { billingService } from '../service';
import type { Billing } from './core';

/** Each request's view of the service (billingOf), made once however often its route asks. */
const views = new WeakMap<RouteContext['req'], Billing>();

/**
 * The plugin's own service with the calls its routes need beyond the public BillingService, as the route's request
 * sees it: a failing gateway call during it is logged to the request's logger, with the request's id.
 */
export const billingOf = (ctx: Pick<RouteContext, 'use' | 'req'>): Billing => {
  let view = views.get(ctx.req);
  if (view === undefined) {
    view = ctx.use(billingService as unknown as ServiceRef<Billing>).withLog(ctx.req.log);
    views.set(ctx.req, view);
  }
  return view;
};
