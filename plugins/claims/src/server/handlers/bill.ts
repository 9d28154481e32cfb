import { route, withMessage } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { claimDetails, createClaim, getClaim, updateClaim } from '../repo';

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
    // A service after the member's termination day is refused in createClaim's transaction (termination.ts).
    handler: async (ctx) => withMessage(await createClaim(ctx, ctx.body), 'The bill was added.'),
  }),
  route(ClaimsApi.update, {
    access: ClaimsAccess.bills,
    handler: async (ctx) => withMessage(await updateClaim(ctx, ctx.body), 'The bill was saved.'),
  }),
];
