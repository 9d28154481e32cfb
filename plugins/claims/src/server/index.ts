import { defineServerPlugin, route, withMessage } from '@portal/server';
import {
  ClaimsAccess,
  ClaimsApi,
  changeStatusSchema,
  claimCreateSchema,
  claimSearchSchema,
  claimUpdateSchema,
  detailsBodySchema,
  globalSearchQuerySchema,
  idParamsSchema,
  vendorParamsSchema,
} from '../contract';
import { statusName } from '../statusFlow';
import { changeStatus, claimDetails, createClaim, getClaim, quickSearch, recentClaims, searchClaims, searchVendors, updateClaim } from './repo';
import { claimsMigrations } from './schema';
import { seedClaims } from './seed';

export default defineServerPlugin({
  id: 'claims',
  migrations: claimsMigrations,
  seed: seedClaims,
  routes: [
    route({
      method: 'POST',
      url: ClaimsApi.search,
      access: ClaimsAccess.bills,
      schemas: { body: claimSearchSchema },
      handler: (ctx) => searchClaims(ctx, ctx.body),
    }),
    route({
      method: 'POST',
      url: ClaimsApi.searchAmethyst,
      access: ClaimsAccess.pending,
      schemas: { body: claimSearchSchema },
      handler: (ctx) => searchClaims(ctx, ctx.body, { pendingOnly: true }),
    }),
    route({
      method: 'GET',
      url: ClaimsApi.getById,
      access: ClaimsAccess.bills,
      schemas: { params: idParamsSchema },
      handler: (ctx) => getClaim(ctx, ctx.params.id),
    }),
    route({
      method: 'POST',
      url: ClaimsApi.details,
      access: ClaimsAccess.bills,
      schemas: { body: detailsBodySchema },
      handler: (ctx) => claimDetails(ctx, ctx.body.ClaimID),
    }),
    route({
      method: 'POST',
      url: ClaimsApi.create,
      access: ClaimsAccess.create,
      schemas: { body: claimCreateSchema },
      handler: async (ctx) => withMessage(await createClaim(ctx, ctx.body), 'The bill was added.'),
    }),
    route({
      method: 'POST',
      url: ClaimsApi.update,
      access: ClaimsAccess.bills,
      schemas: { body: claimUpdateSchema },
      handler: async (ctx) => withMessage(await updateClaim(ctx, ctx.body), 'The bill was saved.'),
    }),
    route({
      method: 'POST',
      url: ClaimsApi.changeStatusAM,
      access: ClaimsAccess.changeStatus,
      schemas: { body: changeStatusSchema },
      handler: async (ctx) => {
        const items = await changeStatus(ctx, ctx.body);
        const what = items.length === 1 ? '1 bill' : `${items.length} bills`;
        return withMessage({ Items: items, ItemCount: items.length }, `${what} set to ${statusName(ctx.body.ClaimStatusID)}.`);
      },
    }),
    route({
      method: 'GET',
      url: ClaimsApi.searchVendors,
      access: ClaimsAccess.vendors,
      schemas: { params: vendorParamsSchema },
      handler: (ctx) => searchVendors(ctx.database.sql, ctx.params.text),
    }),
    route({
      method: 'GET',
      url: ClaimsApi.recent,
      access: ClaimsAccess.recent,
      handler: (ctx) => recentClaims(ctx),
    }),
    route({
      method: 'GET',
      url: ClaimsApi.globalSearch,
      access: ClaimsAccess.globalSearch,
      schemas: { query: globalSearchQuerySchema },
      handler: (ctx) => quickSearch(ctx, ctx.query.q, ctx.query.s),
    }),
  ],
});
