import { defineServerPlugin } from '@portal/server';
import { subresourceRoutes } from './handlers/subresources';
import { teamRoutes } from './handlers/teams';
import { userRoutes } from './handlers/users';
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';

/** User and team administration; the activation e-mail goes through the account plugin's service. */
export default defineServerPlugin({
  id: 'users',
  dependsOn: ['account'],
  migrations,
  seed,
  routes: [...userRoutes, ...subresourceRoutes, ...teamRoutes],
  messages: { es },
});
