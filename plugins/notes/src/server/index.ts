import { defineServerPlugin } from '@portal/server';
import { noteRoutes } from './handlers/notes';
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({ id: 'notes', migrations, seed, routes: [...noteRoutes], messages: { es } });
