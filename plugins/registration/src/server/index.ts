import { accountService } from '@portal/plugin-account/service';
import { billingService } from '@portal/plugin-billing/service';
import { defineServerPlugin } from '@portal/server';
import { RegistrationPaths } from '../steps';
import { questionRoutes } from './handlers/question';
// The Spanish of every message this server side sends (the completion refusals, errors), keyed by the English.
import es from './i18n/es.json';
import { migrations } from './migrations';
import { registrationRules } from './rules';

/**
 * The registration wizard's server side. The step endpoints stay in the account plugin (their paths and contract);
 * this plugin hands the account service the rule for completing registration, which needs billing's knowledge.
 */
export default defineServerPlugin({
  id: 'registration',
  dependsOn: ['account', 'profile', 'billing'],
  init: ({ use }) => {
    use(accountService).useRegistrationRules(registrationRules(() => use(billingService)));
  },
  migrations,
  // The Link Card screen embeds the gateway's hosted card form.
  framePages: { paths: [RegistrationPaths.card], origins: (services) => [services.payments.formOrigin] },
  routes: [...questionRoutes],
  messages: { es },
});
