import { notFound, type RouteContext, route, withMessage } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { changeStatus, claimDetails, statusChanged } from '../repo';

/**
 * The support screens' calls on one member's bills (spec 02 section 7): the caller names the member, who must be a
 * member account; the bills are scoped to that member as if support acted for them, through the same state machine.
 */
async function asMember(ctx: RouteContext, memberId: number) {
  if (!(await ctx.services.members.isMemberAccount(memberId))) throw notFound('The bill was not found.');
  return { user: ctx.user, memberId, impersonating: false, database: ctx.database, services: ctx.services, audit: ctx.audit, config: ctx.config };
}

export const supportRoutes = [
  route(ClaimsApi.supportGetById, {
    access: ClaimsAccess.support,
    handler: async (ctx) => {
      const details = await claimDetails(await asMember(ctx, ctx.params.memberId), ctx.params.claimId);
      ctx.auditRead({ action: 'claims.read.details', entity: 'claim', entityId: ctx.params.claimId, memberId: ctx.params.memberId });
      return details;
    },
  }),
  route(ClaimsApi.supportChangeStatus, {
    access: ClaimsAccess.support,
    handler: async (ctx) => {
      const items = await changeStatus(await asMember(ctx, ctx.body.MemberID), ctx.body);
      return withMessage({ Items: items, ItemCount: items.length }, statusChanged(items.length, ctx.body.NewClaimStatusID));
    },
  }),
];
