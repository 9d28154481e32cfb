import type { ServiceRef } from '@portal/core';
import type { RouteContext } from '@portal/server';
import { billingService } from '../service';
import type { Billing } from './core';

/**
 * The plugin's own service with the calls its routes need beyond the public BillingService, as the route's request
 * sees it: a failing gateway call during it is logged to the request's logger, with the request's id. A view is a
 * set of closures over the service's shared state, so asking twice in one request costs only the closures.
 */
export const billingOf = (ctx: Pick<RouteContext, 'use' | 'req'>): Billing => ctx.use(billingService as unknown as ServiceRef<Billing>).withLog(ctx.req.log);
