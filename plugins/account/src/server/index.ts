import { defineServerPlugin } from '@portal/server';
import { type AccountService, accountService } from '../service';
import { createAccountService } from './activation-service';
import { linkRoutes } from './handlers/links';
import { profileRoutes } from './handlers/profile';
import { registrationRoutes } from './handlers/registration';
// The Spanish of every message this server side sends (errors, withMessage, texts in answers, e-mails), keyed by the English.
import es from './i18n/es.json';
import { migrations } from './migrations';

export default defineServerPlugin<AccountService>({
  id: 'account',
  provides: { ref: accountService, create: createAccountService },
  migrations,
  routes: [...registrationRoutes, ...linkRoutes, ...profileRoutes],
  messages: { es },
});
