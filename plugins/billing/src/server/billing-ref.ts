import type { ServiceRef } from '@portal/core';
import type { RouteContext } from '@portal/server';
import { billingService } from '../service';
import type { Billing } from './core';

/** The plugin's own service with the calls its routes need beyond the public BillingService. */
export const billingOf = (ctx: Pick<RouteContext, 'use'>): Billing => ctx.use(billingService as unknown as ServiceRef<Billing>);
