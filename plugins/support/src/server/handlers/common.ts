import type { EndpointSpec } from '@portal/core';
import { billingService, type SupportTransaction } from '@portal/plugin-billing/service';
import { type PermissionKey, usersService } from '@portal/plugin-users/service';
import { ApiError, forbidden, type RouteContext } from '@portal/server';
import { SUPPORT_MESSAGES } from '../../contract';

type Ctx = Pick<RouteContext, 'services' | 'use' | 'audit' | 'brand'>;

export const billingOf = (ctx: Pick<RouteContext, 'use'>) => ctx.use(billingService);
export const actorOf = (ctx: Pick<RouteContext, 'audit' | 'brand'>) => ({ audit: ctx.audit, brand: ctx.brand });

/**
 * The per-user permission a route needs on top of its role (the users plugin's Permissions tab, read through its
 * service at each call): without it, the kernel's refusal (403 "You do not have permission to do this."), audited as
 * the kernel audits a refused route (access.refused, the route and the permission as the reason).
 */
export async function requirePermission(ctx: Pick<RouteContext, 'user' | 'use' | 'audit'>, endpoint: EndpointSpec, permission: PermissionKey): Promise<void> {
  if (!ctx.user) throw new ApiError(401, 'Please sign in to continue.');
  if (await ctx.use(usersService).hasPermission(ctx.user.id, permission)) return;
  await ctx.audit({
    action: 'access.refused',
    outcome: 'refused',
    entity: 'route',
    entityId: `${endpoint.method} ${endpoint.path}`,
    detail: { status: 403, reason: `permission ${permission}` },
  });
  throw forbidden();
}

/** Support may act only on member accounts (never on a staff login's member record). */
export async function mustBeMember(ctx: Pick<RouteContext, 'services'>, memberId: number): Promise<void> {
  if (!(await ctx.services.members.isMemberAccount(memberId))) throw new ApiError(403, SUPPORT_MESSAGES.notMember);
}

/** A charge by id, of a member account; 404 when there is none. */
export async function memberTransaction(ctx: Ctx, transactionId: number) {
  const t = await billingOf(ctx).findTransaction(transactionId);
  if (!t) throw new ApiError(404, SUPPORT_MESSAGES.notFound);
  await mustBeMember(ctx, t.Member.MemberID);
  return t;
}

/** A page of charges in the reader's language (the server's own descriptions and the gateway's messages). */
export function inLanguage<P extends { Items: SupportTransaction[] }>(ctx: Pick<RouteContext, 'use' | 't'>, page: P): P {
  const billing = billingOf(ctx);
  return { ...page, Items: page.Items.map((tx) => billing.inLanguage(tx, (m) => ctx.t(m))) };
}
