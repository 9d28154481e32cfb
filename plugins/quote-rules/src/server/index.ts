import { defineServerPlugin } from '@portal/server';
import { companyRoutes } from './handlers/companies';
import { quoteRoutes } from './handlers/quotes';
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({ id: 'quote-rules', migrations, seed, routes: [...companyRoutes, ...quoteRoutes], messages: { es } });
