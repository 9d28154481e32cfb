import { defineServerPlugin, scheduleHousekeeping } from '@portal/server';
import { ledgerService } from '../service';
import { dashboardRoutes } from './handlers/dashboard';
import { financialRoutes } from './handlers/financials';
import { transactionRoutes } from './handlers/transactions';
// The Spanish of every message this server side sends (the rules' refusals, errors, withMessage, texts in answers),
// keyed by the English text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { checkRowsNowDue, DUE_ROWS_CRON, DUE_ROWS_JOB, systemLowBalanceCheck } from './lowBalance';
import { migrations } from './migrations';
import { CREATE_KEY_PRUNE_CRON, CREATE_KEY_PRUNE_JOB, pruneCreateKeys } from './repo';
import { seed } from './seed';
import { makeLedgerService } from './service';

export default defineServerPlugin({
  id: 'ledger',
  // The low-balance e-mail: every change of a member's balance goes through trends' rule (trendsService).
  dependsOn: ['trends'],
  // Bank rows posted through the service (a linked account's sync) go through the same low-balance rule, as 'system'.
  provides: { ref: ledgerService, create: (init) => makeLedgerService(init.database.sql, systemLowBalanceCheck(init)) },
  migrations,
  seed,
  init: async (init) => {
    const { services, database } = init;
    // The creates' keys go on the kernel's window for its own (services.createKeys). No retries: the next day's run
    // does the same work.
    await scheduleHousekeeping(services.jobs, CREATE_KEY_PRUNE_JOB, CREATE_KEY_PRUNE_CRON, () => pruneCreateKeys(database.sql));
    // Rows dated after the business's today count in the balance from their day: the low-balance rule runs for them
    // then (hourly; no retries, the next hour's run does the same work).
    await scheduleHousekeeping(services.jobs, DUE_ROWS_JOB, DUE_ROWS_CRON, () => checkRowsNowDue(init, systemLowBalanceCheck(init)));
  },
  routes: [...financialRoutes, ...transactionRoutes, ...dashboardRoutes],
  messages: { es },
});
