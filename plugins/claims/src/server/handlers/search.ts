import { route } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { quickSearch, recentClaims, searchClaims } from '../repo';

/**
 * Lists of bills: the bills list, the pending claims list, the dashboard's recent claims and the global search. They
 * read through ctx.searchSql: the read replica when one is set and has the caller's own changes.
 */
// Every read of bills is audited (HIPAA 164.312(b)), batched off the request's path by ctx.auditRead.
export const searchRoutes = [
  route(ClaimsApi.search, {
    access: ClaimsAccess.bills,
    readOnly: true,
    handler: async (ctx) => {
      const result = await searchClaims(ctx, ctx.body);
      ctx.auditRead({ action: 'claims.search', entity: 'claim', detail: { count: result.Items.length, total: result.ItemCount } });
      return result;
    },
  }),
  route(ClaimsApi.searchAmethyst, {
    access: ClaimsAccess.pending,
    readOnly: true,
    handler: async (ctx) => {
      const result = await searchClaims(ctx, ctx.body, { pendingOnly: true });
      ctx.auditRead({ action: 'claims.search.pending', entity: 'claim', detail: { count: result.Items.length, total: result.ItemCount } });
      return result;
    },
  }),
  route(ClaimsApi.recent, {
    access: ClaimsAccess.recent,
    handler: async (ctx) => {
      const result = await recentClaims(ctx);
      ctx.auditRead({ action: 'claims.recent', entity: 'claim', detail: { ids: result.map((c) => c.ClaimID) } });
      return result;
    },
  }),
  route(ClaimsApi.globalSearch, {
    access: ClaimsAccess.globalSearch,
    handler: async (ctx) => {
      const result = await quickSearch(ctx, ctx.query.q, ctx.query.s);
      ctx.auditRead({ action: 'claims.quicksearch', entity: 'claim', detail: { count: result.length } });
      return result;
    },
  }),
];
