import { defineServerPlugin } from '@portal/server';
import { contactRoutes } from './handlers/contacts';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({ id: 'contacts', migrations, seed, routes: [...contactRoutes] });
