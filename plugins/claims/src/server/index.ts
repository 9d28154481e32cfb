import { defineServerPlugin } from '@portal/server';
import { billRoutes } from './handlers/bill';
import { searchRoutes } from './handlers/search';
import { statusRoutes } from './handlers/status';
import { vendorRoutes } from './handlers/vendors';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({
  id: 'claims',
  migrations,
  seed,
  routes: [...searchRoutes, ...billRoutes, ...statusRoutes, ...vendorRoutes],
});
