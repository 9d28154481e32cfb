import { defineServerPlugin } from '@portal/server';
import { type TrendsService, trendsService } from '../service';
import { lowBalanceRoutes } from './handlers/lowBalance';
import { seriesRoutes } from './handlers/series';
import { makeTrendsService } from './lowBalance';
import { migrations } from './migrations';

export default defineServerPlugin<TrendsService>({
  id: 'trends',
  dependsOn: ['claims'],
  provides: { ref: trendsService, create: ({ database, services }) => makeTrendsService({ sql: database.sql, services }) },
  migrations,
  routes: [...seriesRoutes, ...lowBalanceRoutes],
});
