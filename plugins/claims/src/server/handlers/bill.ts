import { formatIsoDayText, localeOf, msg } from '@portal/core';
import { ApiError, type RouteContext, route, withMessage } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { type ClaimCreate, ClaimsApi } from '../../contract';
import { claimDetails, createClaim, getClaim, updateClaim } from '../repo';

/**
 * A new bill for a service after the member's membership ended is refused (409), whoever asks (the member, staff acting
 * for them, or staff naming the MemberID): services up to and on the termination day may still be billed. The
 * termination day is the business's calendar day of the termination; the service is its first day (ServiceDateFrom).
 * The member the bill is for as createClaim decides it; a member it does not know is left to createClaim's answer.
 */
async function refuseAfterTermination(ctx: Pick<RouteContext, 'memberId' | 'services' | 'config' | 'language'>, b: ClaimCreate) {
  const memberId = ctx.memberId ?? b.MemberID ?? null;
  if (memberId === null || !b.ServiceDateFrom) return;
  const ended = await ctx.services.members.terminationDay(memberId, ctx.config.businessTimeZone);
  if (ended !== null && b.ServiceDateFrom > ended)
    throw new ApiError(
      409,
      // The day in the reader's language ('Feb 3, 2026', '3 feb 2026').
      msg('The membership ended on {{date}}: a bill for a service after that day cannot be added.', {
        date: formatIsoDayText(ended, 'medium', localeOf(ctx.language)),
      }),
    );
}

/** One bill: read, details, add, edit. */
export const billRoutes = [
  route(ClaimsApi.getById, {
    access: ClaimsAccess.bills,
    handler: async (ctx) => {
      const claim = await getClaim(ctx, ctx.params.id);
      ctx.auditRead({ action: 'claims.read', entity: 'claim', entityId: claim.ClaimID, memberId: claim.MemberID });
      return claim;
    },
  }),
  route(ClaimsApi.details, {
    access: ClaimsAccess.bills,
    handler: async (ctx) => {
      const details = await claimDetails(ctx, ctx.body.ClaimID);
      // The bill's member, not the request's: staff acting for nobody have none, and the read is of this member's data.
      ctx.auditRead({ action: 'claims.read.details', entity: 'claim', entityId: details.Claim.ClaimID, memberId: details.Claim.MemberID });
      return details;
    },
  }),
  route(ClaimsApi.create, {
    access: ClaimsAccess.createBill,
    handler: async (ctx) => {
      await refuseAfterTermination(ctx, ctx.body);
      return withMessage(await createClaim(ctx, ctx.body), 'The bill was added.');
    },
  }),
  route(ClaimsApi.update, {
    access: ClaimsAccess.bills,
    handler: async (ctx) => withMessage(await updateClaim(ctx, ctx.body), 'The bill was saved.'),
  }),
];
