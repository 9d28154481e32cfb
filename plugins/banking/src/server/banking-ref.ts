import type { ServiceRef } from '@portal/core';
import { ApiError, type RouteContext } from '@portal/server';
import { BANK_MESSAGES } from '../access';
import { bankingService } from '../service';
import type { Banking } from './core';

/** The plugin's own service with the calls its routes need beyond the public BankingService. */
export const bankingOf = (ctx: Pick<RouteContext, 'use'>): Banking => ctx.use(bankingService as unknown as ServiceRef<Banking>);

/** The member a member call acts for (own, or impersonated by staff); staff without one are refused. */
export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw new ApiError(400, BANK_MESSAGES.noMember);
  return ctx.memberId;
}
