import { defineServerPlugin } from '@portal/server';
import { linkRoutes } from './handlers/links';
import { profileRoutes } from './handlers/profile';
import { registrationRoutes } from './handlers/registration';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'account', migrations, routes: [...registrationRoutes, ...linkRoutes, ...profileRoutes] });
