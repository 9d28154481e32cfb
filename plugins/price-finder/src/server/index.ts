import { defineServerPlugin } from '@portal/server';
import { searchRoutes } from './handlers/search';
import es from './i18n/es.json';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'price-finder', migrations, routes: [...searchRoutes], messages: { es } });
