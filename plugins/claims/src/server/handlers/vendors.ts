import { route } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { searchVendors } from '../repo';

/** The shared payees offered on the bill entry forms. */
export const vendorRoutes = [
  route(ClaimsApi.searchVendors, { access: ClaimsAccess.vendors, handler: (ctx) => searchVendors(ctx.database.sql, ctx.params.text) }),
];
