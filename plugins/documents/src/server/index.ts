import { defineServerPlugin } from '@portal/server';
import { documentRoutes } from './handlers/documents';
import { statementRoutes } from './handlers/statements';
import es from './i18n/es.json';
import { migrations } from './migrations';

export default defineServerPlugin({ id: 'documents', dependsOn: ['ledger'], migrations, routes: [...documentRoutes, ...statementRoutes], messages: { es } });
