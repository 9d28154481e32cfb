import { defineServerPlugin } from '@portal/server';
import { type UsersService, usersService } from '../service';
import { subresourceRoutes } from './handlers/subresources';
import { teamRoutes } from './handlers/teams';
import { userRoutes } from './handlers/users';
import es from './i18n/es.json';
import { migrations } from './migrations';
import { createUsersService } from './permissions';
import { seed } from './seed';

/**
 * User and team administration; the activation e-mail goes through the account plugin's service. Offers a read-only
 * service: the permissions a user holds, for the plugins whose routes they gate (support).
 */
export default defineServerPlugin<UsersService>({
  id: 'users',
  dependsOn: ['account'],
  provides: { ref: usersService, create: createUsersService },
  migrations,
  seed,
  routes: [...userRoutes, ...subresourceRoutes, ...teamRoutes],
  messages: { es },
});
