import { ApiError, type RouteContext } from '@portal/server';
import { BILLING_MESSAGES } from '../../contract';
import type { BillingActor } from '../../service';

/** The member a member call acts for (own, or impersonated by support); staff without one are refused. */
export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw new ApiError(400, BILLING_MESSAGES.noMember);
  return ctx.memberId;
}

/**
 * A result with its Message in the user's language. Results carry English text (ours, the coupon check's, or the
 * gateway's decline and refusal texts, which billing's catalogue translates too) so the public BillingService stays
 * language-free; the route that answers words it.
 */
export const worded = <T extends { Message: string }>(ctx: Pick<RouteContext, 't'>, r: T): T => ({ ...r, Message: ctx.t(r.Message) });

export const actorOf = (ctx: Pick<RouteContext, 'audit' | 'brand'>): BillingActor => ({ audit: ctx.audit, brand: ctx.brand });

/**
 * The hosted form tells only this origin about the outcome, so it must be the site the request came from
 * (no other page can receive a member's form events).
 */
export function ownSiteUrl(ctx: Pick<RouteContext, 'req'>, returnUrl: string): string {
  const u = new URL(returnUrl);
  const host = ctx.req.headers.host;
  if (!host || u.host.toLowerCase() !== host.toLowerCase() || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw new ApiError(400, BILLING_MESSAGES.badReturnUrl);
  }
  return u.toString();
}
