import { defineServerPlugin } from '@portal/server';
import { noteRoutes } from './handlers/notes';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({ id: 'notes', migrations, seed, routes: [...noteRoutes] });
