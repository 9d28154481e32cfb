import { defineServerPlugin } from '@portal/server';
import { addressRoutes } from './handlers/addresses';
import { memberRoutes } from './handlers/members';
import { messagingRoutes, SMS_SEND_JOB, type SmsJob } from './handlers/messaging';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({
  id: 'profile',
  migrations,
  seed,
  init: async ({ services }) => {
    // Codes go out through the queue: a slow or failing provider never holds the request. A code lives
    // 10 minutes, so retrying longer is pointless; failed runs are retried briefly.
    await services.jobs.define<SmsJob>(SMS_SEND_JOB, (message) => services.sms.send(message), {
      retryLimit: 4,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 60,
    });
  },
  routes: [...memberRoutes, ...addressRoutes, ...messagingRoutes],
});
