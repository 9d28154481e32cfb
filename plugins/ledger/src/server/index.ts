import { defineServerPlugin } from '@portal/server';
import { ledgerService } from '../service';
import { dashboardRoutes } from './handlers/dashboard';
import { financialRoutes } from './handlers/financials';
import { transactionRoutes } from './handlers/transactions';
// The Spanish of every message this server side sends (the rules' refusals, errors, withMessage, texts in answers),
// keyed by the English text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';
import { makeLedgerService } from './service';

export default defineServerPlugin({
  id: 'ledger',
  // The low-balance e-mail: every change of a member's balance goes through trends' rule (trendsService).
  dependsOn: ['trends'],
  provides: { ref: ledgerService, create: ({ database }) => makeLedgerService(database.sql) },
  migrations,
  seed,
  routes: [...financialRoutes, ...transactionRoutes, ...dashboardRoutes],
  messages: { es },
});
