import { defineServerPlugin } from '@portal/server';
import { dashboardRoutes } from './handlers/dashboard';
import { financialRoutes } from './handlers/financials';
import { transactionRoutes } from './handlers/transactions';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({ id: 'ledger', migrations, seed, routes: [...financialRoutes, ...transactionRoutes, ...dashboardRoutes] });
