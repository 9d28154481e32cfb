import { defineServerPlugin } from '@portal/server';
import { formRoutes } from './handlers/forms';
import es from './i18n/es.json';

export default defineServerPlugin({ id: 'download-forms', dependsOn: ['profile'], routes: [...formRoutes], messages: { es } });
