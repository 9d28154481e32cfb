import { defineServerPlugin } from '@portal/server';
import { topicRoutes } from './handlers/topics';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'help', migrations, routes: [...topicRoutes] });
