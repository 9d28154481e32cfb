import { ledgerService } from '@portal/plugin-ledger/service';
import { defineServerPlugin } from '@portal/server';
import { BANK_FRAME_PAGES } from '../access';
import { type BankingService, bankingService } from '../service';
import { type Banking, makeBanking, REFRESH_JOB, SYNC_JOB, UNLINK_JOB } from './core';
import { financeRoutes } from './handlers/finance';
import { supportRoutes } from './handlers/support';
// The Spanish of every message this server side sends (errors, withMessage, texts in answers) and of the bank
// aggregator's texts it relays, keyed by the English text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { migrations } from './migrations';

export default defineServerPlugin<BankingService>({
  id: 'banking',
  // The linked accounts' transactions feed the ledger's bank view through the ledger's service.
  dependsOn: ['ledger'],
  provides: { ref: bankingService, create: ({ services, database, use }) => makeBanking(services, database, use(ledgerService)) },
  init: async ({ services, database, use }) => {
    const banking = makeBanking(services, database, use(ledgerService));
    // Refreshes are slow at a real aggregator: a job asks it, marks stale links, then reads balances and transactions.
    await services.jobs.define<{ memberId: number; accountIds: number[] }>(REFRESH_JOB, (p) => banking.runRefresh(p.memberId, p.accountIds), {
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
    });
    // One waiting sync per member ('short': a send with the member's singleton key while one waits is dropped); a sync
    // under way or waiting for its retry does not hold a new one back.
    await services.jobs.define<{ memberId: number }>(SYNC_JOB, (p) => banking.sync(p.memberId), {
      retryLimit: 5,
      retryDelay: 10,
      retryBackoff: true,
      policy: 'short',
    });
    // A link the aggregator made while the membership ended (an add or MFA answer overtaken by the termination), which
    // could not be removed there at once: removed by this job, retried (the aggregator's 404 is done).
    await services.jobs.define<{ memberId: number; providerAccountId: number }>(UNLINK_JOB, (p) => banking.runUnlink(p.memberId, p.providerAccountId), {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
    });
  },
  // A membership that ended: its linked banks are removed at the aggregator and here (POST account/terminate, run for
  // every termination by the kernel's member.terminated job); removing is safe to repeat.
  // The removal here and its audit row (by 'system') are one transaction.
  onMemberTerminated: async (memberId, { use, services }) => {
    await (use(bankingService) as unknown as Banking).terminate(memberId, (entry, tx) => services.audit.write({ ...entry, actorName: 'system' }, tx), {
      reason: 'member terminated',
    });
  },
  migrations,
  // The bank pages embed the aggregator's hosted linking page: their CSP frame-src names only the aggregator's origin.
  framePages: { paths: BANK_FRAME_PAGES, origins: (services) => [services.banks.linkOrigin] },
  routes: [...financeRoutes, ...supportRoutes],
  messages: { es },
});
