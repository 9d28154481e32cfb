import { defineServerPlugin, jobIdempotencyKey, scheduleHousekeeping } from '@portal/server';
import { profileService } from '../service';
import { CODE_PRUNE_CRON, CODE_PRUNE_JOB, pruneCodes } from './codes';
import { addressRoutes } from './handlers/addresses';
import { memberRoutes } from './handlers/members';
import { messagingRoutes, SMS_SEND_JOB, type SmsJob } from './handlers/messaging';
// The Spanish of every message this server side sends (errors, withMessage, the text message with the code), keyed by the English.
import es from './i18n/es.json';
import { memberPage } from './list';
import { migrations } from './migrations';
import { seed } from './seed';

export default defineServerPlugin({
  id: 'profile',
  provides: {
    ref: profileService,
    create: ({ database }) => ({
      mailingAddress: async (memberId) =>
        (
          await database.sql.query<{ address1: string; address2: string | null; city: string; state: string; zip: string }>(
            'SELECT address1, address2, city, state, zip FROM profile_addresses WHERE member_id = $1 ORDER BY is_current DESC, address_id DESC LIMIT 1',
            [memberId],
          )
        )[0] ?? null,
      memberPage: (query, reader = database.sql) => memberPage(reader, query),
    }),
  },
  migrations,
  seed,
  init: async ({ services, database }) => {
    // Codes go out through the queue: a slow or failing provider never holds the request. A code lives
    // 10 minutes, so retrying longer is pointless; failed runs are retried briefly. Every run of one job sends with
    // the job's idempotency key (`profile.sms.send.<job id>`), so a run that failed after the provider took the
    // message (its answer lost) does not text the member twice. The message holds a live code: the job is sealed
    // (stored encrypted, its row deleted once delivered), so the database never holds a code in clear.
    await services.jobs.define<SmsJob>(SMS_SEND_JOB, (message, job) => services.sms.send(message, { idempotencyKey: jobIdempotencyKey(job) }), {
      retryLimit: 4,
      retryDelay: 2,
      retryBackoff: true,
      expireInSeconds: 60,
      sealed: true,
    });
    // Spent and expired codes (with the numbers they went to) go after CODE_RETENTION_DAYS. No retries: the next day's
    // run does the same work.
    await scheduleHousekeeping(services.jobs, CODE_PRUNE_JOB, CODE_PRUNE_CRON, () => pruneCodes(database.sql));
  },
  routes: [...memberRoutes, ...addressRoutes, ...messagingRoutes],
  messages: { es },
});
