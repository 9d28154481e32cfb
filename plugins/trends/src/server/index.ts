import { defineServerPlugin } from '@portal/server';
import { type TrendsService, trendsService } from '../service';
import { lowBalanceRoutes } from './handlers/lowBalance';
import { seriesRoutes } from './handlers/series';
// The Spanish of every message this server side sends (errors and the low-balance e-mail), keyed by the English
// text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { makeTrendsService } from './lowBalance';
import { migrations } from './migrations';

export default defineServerPlugin<TrendsService>({
  id: 'trends',
  dependsOn: ['claims'],
  provides: { ref: trendsService, create: ({ database, services, config }) => makeTrendsService({ sql: database.sql, services, config }) },
  migrations,
  routes: [...seriesRoutes, ...lowBalanceRoutes],
  messages: { es },
});
