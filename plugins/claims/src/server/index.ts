import { defineServerPlugin } from '@portal/server';
import { type ClaimsService, claimsService } from '../service';
import { billRoutes } from './handlers/bill';
import { searchRoutes } from './handlers/search';
import { statusRoutes } from './handlers/status';
import { supportRoutes } from './handlers/support';
import { vendorRoutes } from './handlers/vendors';
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';
import { makeClaimsService } from './series';

export default defineServerPlugin<ClaimsService>({
  id: 'claims',
  provides: {
    ref: claimsService,
    create: ({ database, config, services }) =>
      makeClaimsService(database.sql, { replica: database.replica, timeZone: config.businessTimeZone, members: services.members }),
  },
  migrations,
  seed,
  routes: [...searchRoutes, ...billRoutes, ...statusRoutes, ...vendorRoutes, ...supportRoutes],
  messages: { es },
});
