import { route } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { quickSearch, recentClaims, searchClaims } from '../repo';

/** Lists of bills: the bills list, the pending claims list, the dashboard's recent claims and the global search. */
export const searchRoutes = [
  route(ClaimsApi.search, { access: ClaimsAccess.bills, handler: (ctx) => searchClaims(ctx, ctx.body) }),
  route(ClaimsApi.searchAmethyst, { access: ClaimsAccess.pending, handler: (ctx) => searchClaims(ctx, ctx.body, { pendingOnly: true }) }),
  route(ClaimsApi.recent, { access: ClaimsAccess.recent, handler: (ctx) => recentClaims(ctx) }),
  route(ClaimsApi.globalSearch, { access: ClaimsAccess.globalSearch, handler: (ctx) => quickSearch(ctx, ctx.query.q, ctx.query.s) }),
];
