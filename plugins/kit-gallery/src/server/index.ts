import { defineServerPlugin } from '@portal/server';
import { formRoutes } from './handlers/form';
import { rowRoutes } from './handlers/rows';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'kit-gallery', migrations, routes: [...rowRoutes, ...formRoutes] });
