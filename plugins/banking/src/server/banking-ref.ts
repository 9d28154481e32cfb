import type { ServiceRef } from '@portal/core';
import { ApiError, type RouteContext } from '@portal/server';
import type { LinkedAccounts, LinkResult } from '../contract';
import { bankingService } from '../service';
import type { Banking } from './core';
import { BANK_MESSAGES } from './messages';

/** The plugin's own service with the calls its routes need beyond the public BankingService. */
export const bankingOf = (ctx: Pick<RouteContext, 'use'>): Banking => ctx.use(bankingService as unknown as ServiceRef<Banking>);

/** The member a member call acts for (own, or impersonated by staff); staff without one are refused. */
export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw new ApiError(400, BANK_MESSAGES.noMember);
  return ctx.memberId;
}

/**
 * A link result with its Message in the user's language: the aggregator's text (a wrong password, a wrong answer),
 * which banking's catalogue translates too, or ours.
 */
export const wordedLink = (ctx: Pick<RouteContext, 't'>, r: LinkResult): LinkResult => ({ ...r, Message: ctx.t(r.Message) });

/** Linked accounts with each bank's Message (the aggregator's, e.g. that the credentials changed) in the user's language. */
export const wordedAccounts = <T extends LinkedAccounts>(ctx: Pick<RouteContext, 't'>, a: T): T => ({
  ...a,
  Banks: a.Banks.map((b) => ({ ...b, Message: b.Message === null ? null : ctx.t(b.Message) })),
});
