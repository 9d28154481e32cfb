import { defineServerPlugin } from '@portal/server';
import { contactRoutes } from './handlers/contacts';
// The Spanish of every message this server side sends (its refusals), keyed by the English.
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({ id: 'contacts', migrations, seed, routes: [...contactRoutes], messages: { es } });
