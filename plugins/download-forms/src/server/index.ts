import { defineServerPlugin } from '@portal/server';
import { formRoutes } from './handlers/forms';

export default defineServerPlugin({ id: 'download-forms', dependsOn: ['profile'], routes: [...formRoutes] });
