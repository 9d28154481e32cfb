import { defineServerPlugin } from '@portal/server';
import { type CouponsService, couponsService } from '../service';
import { couponRoutes } from './handlers/coupons';
// The Spanish of every message this server side sends (errors, withMessage, texts in answers, the coupon check's
// messages billing relays), keyed by the English text. tests/server-messages.test.ts checks it.
import es from './i18n/es.json';
import { migrations } from './migrations';
import { seed } from './seed';
import { makeCouponsService } from './service';

export default defineServerPlugin<CouponsService>({
  id: 'coupons',
  provides: { ref: couponsService, create: ({ database, config }) => makeCouponsService(database.sql, config.businessTimeZone) },
  migrations,
  seed,
  routes: [...couponRoutes],
  messages: { es },
});
