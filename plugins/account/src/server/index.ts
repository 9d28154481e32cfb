import { defineServerPlugin, scheduleHousekeeping } from '@portal/server';
import { type AccountService, accountService } from '../service';
import { createAccountService } from './activation-service';
import { linkRoutes } from './handlers/links';
import { profileRoutes } from './handlers/profile';
import { registrationRoutes } from './handlers/registration';
// The Spanish of every message this server side sends (errors, withMessage, texts in answers, e-mails), keyed by the English.
import es from './i18n/es.json';
import { LINK_PRUNE_CRON, LINK_PRUNE_JOB, pruneLinks } from './links';
import { migrations } from './migrations';

export default defineServerPlugin<AccountService>({
  id: 'account',
  provides: { ref: accountService, create: createAccountService },
  migrations,
  init: async ({ services, database }) => {
    // No retries: the next run does the same work.
    await scheduleHousekeeping(services.jobs, LINK_PRUNE_JOB, LINK_PRUNE_CRON, () => pruneLinks(database.sql));
  },
  routes: [...registrationRoutes, ...linkRoutes, ...profileRoutes],
  messages: { es },
});
