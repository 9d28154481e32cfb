import { defineServerPlugin } from '@portal/server';
import { ledgerService } from '../service';
import { dashboardRoutes } from './handlers/dashboard';
import { financialRoutes } from './handlers/financials';
import { transactionRoutes } from './handlers/transactions';
import { migrations } from './migrations';
import { seed } from './seed';
import { makeLedgerService } from './service';

export default defineServerPlugin({
  id: 'ledger',
  provides: { ref: ledgerService, create: ({ database }) => makeLedgerService(database.sql) },
  migrations,
  seed,
  routes: [...financialRoutes, ...transactionRoutes, ...dashboardRoutes],
});
