import { defineServerPlugin } from '@portal/server';
import { type CouponsService, couponsService } from '../service';
import { couponRoutes } from './handlers/coupons';
import { migrations } from './migrations';
import { seed } from './seed';
import { makeCouponsService } from './service';

export default defineServerPlugin<CouponsService>({
  id: 'coupons',
  provides: { ref: couponsService, create: ({ database }) => makeCouponsService(database.sql) },
  migrations,
  seed,
  routes: [...couponRoutes],
});
