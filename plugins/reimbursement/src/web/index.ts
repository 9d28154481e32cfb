import { billPanels } from '@portal/plugin-claims/bill-panels';
import { contribute, defineWebPlugin } from '@portal/web';
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
  contributes: [
    // The receipts of a bill made from a reimbursement request, on the bill's detail page (/claims/:id).
    contribute(billPanels, { id: 'reimbursement.receipts', order: 10, access: REIMBURSEMENT_ACCESS, load: () => import('./components/BillReceipts') }),
  ],
});
