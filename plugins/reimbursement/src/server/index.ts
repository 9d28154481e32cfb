import { defineServerPlugin, scheduleHousekeeping } from '@portal/server';
import { CREATE_KEY_PRUNE_CRON, CREATE_KEY_PRUNE_JOB, pruneCreateKeys, reimbursementRoutes } from './handlers/reimbursements';
import es from './i18n/es.json';
import { migrations } from './migrations';
import { pruneUploads } from './uploads';

export default defineServerPlugin({
  id: 'reimbursement',
  dependsOn: ['claims'],
  migrations,
  init: async ({ services, database }) => {
    await services.jobs.define('reimbursement.prune-uploads', async () => {
      await pruneUploads(database.sql, services.files);
    });
    await services.jobs.schedule('reimbursement.prune-uploads', '17 3 * * *');
    // The creates' keys go on the kernel's window for its own (services.createKeys). No retries: the next day's run
    // does the same work.
    await scheduleHousekeeping(services.jobs, CREATE_KEY_PRUNE_JOB, CREATE_KEY_PRUNE_CRON, () => pruneCreateKeys(database.sql));
  },
  routes: reimbursementRoutes,
  messages: { es },
});
