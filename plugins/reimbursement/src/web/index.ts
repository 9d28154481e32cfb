import { defineWebPlugin } from '@portal/web';
import { REIMBURSEMENT_ACCESS, REIMBURSEMENT_PATH } from '../access';

export default defineWebPlugin({
  id: 'reimbursement',
  i18n: { namespace: 'reimbursement', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: REIMBURSEMENT_PATH,
      memberData: true,
      access: REIMBURSEMENT_ACCESS,
      title: 'reimbursement:title',
      nav: { label: 'reimbursement:nav', order: 500 },
      load: () => import('./pages/ReimbursementPage'),
    },
  ],
});
