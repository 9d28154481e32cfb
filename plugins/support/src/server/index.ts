import { defineServerPlugin } from '@portal/server';
import { memberRoutes } from './handlers/members';
import { queueRoutes } from './handlers/queue';
import { reportRoutes } from './handlers/reports';
import { transactionRoutes } from './handlers/transactions';
import es from './i18n/es.json';

/**
 * Support tooling (issue 20): reads and moves money through billing's service, members through profile's and the
 * kernel's; the reports and exports ask the users plugin's service for the caller's permissions.
 */
export default defineServerPlugin({
  id: 'support',
  dependsOn: ['billing', 'profile', 'users'],
  routes: [...transactionRoutes, ...memberRoutes, ...reportRoutes, ...queueRoutes],
  messages: { es },
});
