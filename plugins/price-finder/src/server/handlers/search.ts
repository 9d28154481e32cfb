import { route } from '@portal/server';
import { PRICE_FINDER_ACCESS } from '../../access';
import { PriceFinderApi } from '../../contract';
import { searchPrices } from '../search';

/** The price list is reference data, not a member's: nothing to scope or audit. */
export const searchRoutes = [
  route(PriceFinderApi.search, {
    access: PRICE_FINDER_ACCESS,
    handler: (ctx) => searchPrices(ctx.database.sql, ctx.params.text),
  }),
];
