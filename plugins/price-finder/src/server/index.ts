import { defineServerPlugin } from '@portal/server';
import { searchRoutes } from './handlers/search';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'price-finder', migrations, routes: [...searchRoutes] });
