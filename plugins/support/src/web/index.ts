import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { SUPPORT_ACCESS, SUPPORT_MEMBERS_PATH, SUPPORT_PENDING_PATH, SUPPORT_REPORTS_PATH, SUPPORT_TRANSACTIONS_PATH } from '../access';
import { prefetchSupportQueue } from './components/SupportQueueWidget.data';

export default defineWebPlugin({
  id: 'support',
  i18n: { namespace: 'support', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: SUPPORT_MEMBERS_PATH,
      access: SUPPORT_ACCESS,
      title: 'support:title.members',
      nav: { label: 'support:nav.members', order: 5, group: 'admin' },
      load: () => import('./pages/MembersPage'),
    },
    {
      path: SUPPORT_TRANSACTIONS_PATH,
      access: SUPPORT_ACCESS,
      title: 'support:title.transactions',
      nav: { label: 'support:nav.transactions', order: 20, group: 'admin' },
      load: () => import('./pages/TransactionsPage'),
    },
    {
      path: SUPPORT_PENDING_PATH,
      access: SUPPORT_ACCESS,
      title: 'support:title.pending',
      nav: { label: 'support:nav.pending', order: 21, group: 'admin' },
      load: () => import('./pages/PendingTransactionsPage'),
    },
    {
      path: SUPPORT_REPORTS_PATH,
      access: SUPPORT_ACCESS,
      title: 'support:title.reports',
      nav: { label: 'support:nav.reports', order: 30, group: 'admin' },
      load: () => import('./pages/ReportsPage'),
    },
  ],
  contributes: [
    contribute(Extensions.dashboardWidgets, {
      id: 'support.queue',
      order: 5,
      access: SUPPORT_ACCESS,
      title: 'support:queue.title',
      // Wide: beside the ledger's small balance it fills the first row, so the staff dashboard's frames leave no hole.
      size: 'wide',
      prefetch: prefetchSupportQueue,
      load: () => import('./components/SupportQueueWidget'),
    }),
    contribute(Extensions.memberTabs, {
      id: 'details-transactions',
      order: 30,
      access: SUPPORT_ACCESS,
      title: 'support:member.tab',
      load: () => import('./components/MemberTransactionsTab'),
    }),
  ],
});
