import { defineServerPlugin } from '@portal/server';
import { formRoutes } from './handlers/form';
import { rowRoutes } from './handlers/rows';
import es from './i18n/es.json';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'kit-gallery', migrations, routes: [...rowRoutes, ...formRoutes], messages: { es } });
