import { route, withMessage } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { claimDetails, createClaim, getClaim, updateClaim } from '../repo';

/** One bill: read, details, add, edit. */
export const billRoutes = [
  route(ClaimsApi.getById, { access: ClaimsAccess.bills, handler: (ctx) => getClaim(ctx, ctx.params.id) }),
  route(ClaimsApi.details, { access: ClaimsAccess.bills, handler: (ctx) => claimDetails(ctx, ctx.body.ClaimID) }),
  route(ClaimsApi.create, {
    access: ClaimsAccess.create,
    handler: async (ctx) => withMessage(await createClaim(ctx, ctx.body), 'The bill was added.'),
  }),
  route(ClaimsApi.update, {
    access: ClaimsAccess.bills,
    handler: async (ctx) => withMessage(await updateClaim(ctx, ctx.body), 'The bill was saved.'),
  }),
];
