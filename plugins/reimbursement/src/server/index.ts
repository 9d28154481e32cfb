import { defineServerPlugin } from '@portal/server';
import { reimbursementRoutes } from './handlers/reimbursements';
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
  },
  routes: reimbursementRoutes,
  messages: { es },
});
