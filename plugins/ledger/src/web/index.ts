import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { LedgerAccess, LedgerPaths } from '../access';

export default defineWebPlugin({
  id: 'ledger',
  i18n: { namespace: 'ledger', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: LedgerPaths.ledger,
      memberData: true,
      access: LedgerAccess.ledger,
      title: 'ledger:title.ledger',
      nav: { label: 'ledger:nav.ledger', order: 300 },
      load: () => import('./pages/LedgerPage'),
    },
    // The old address (spelled so), the same ledger.
    {
      path: LedgerPaths.ledgerLegacy,
      access: LedgerAccess.ledgerLegacy,
      title: 'ledger:title.ledger',
      memberData: true,
      load: () => import('./pages/LedgerPage'),
    },
    {
      path: LedgerPaths.activity,
      memberData: true,
      access: LedgerAccess.activity,
      title: 'ledger:title.activity',
      nav: { label: 'ledger:nav.activity', order: 310 },
      load: () => import('./pages/ActivityPage'),
    },
    {
      path: LedgerPaths.reported,
      memberData: true,
      access: LedgerAccess.reported,
      title: 'ledger:title.reported',
      nav: { label: 'ledger:nav.reported', order: 320 },
      load: () => import('./pages/ReportedPage'),
    },
    {
      path: LedgerPaths.card,
      memberData: true,
      access: LedgerAccess.card,
      title: 'ledger:title.card',
      nav: { label: 'ledger:nav.card', order: 330 },
      load: () => import('./pages/CardTransactionsPage'),
    },
  ],
  contributes: [
    contribute(Extensions.trendCharts, {
      id: 'ledger.trend',
      order: 20,
      access: LedgerAccess.dashboard,
      title: 'ledger:trend.title',
      height: 760,
      memberData: true,
      load: () => import('./components/LedgerTrendCharts'),
    }),
    contribute(Extensions.trendCharts, {
      id: 'ledger.adminGauge',
      order: 15,
      access: LedgerAccess.adminBalance,
      title: 'ledger:trend.gauge.adminTitle',
      height: 400,
      load: () => import('./components/BalanceGauge'),
    }),
    contribute(Extensions.dashboardWidgets, {
      id: 'ledger.accountBalance',
      order: 20,
      access: LedgerAccess.dashboard,
      title: 'ledger:widget.balance',
      size: 'small',
      memberData: true,
      load: () => import('./components/AccountBalanceWidget'),
    }),
    // Spec 01 section 6: CareGuardFinance and SuperUser see the admin balance (after recent claims, before the funding date).
    contribute(Extensions.dashboardWidgets, {
      id: 'ledger.adminBalance',
      order: 25,
      access: LedgerAccess.adminBalance,
      title: 'ledger:widget.adminBalance',
      size: 'small',
      load: () => import('./components/AdminBalanceWidget'),
    }),
    contribute(Extensions.dashboardWidgets, {
      id: 'ledger.balanceByMonth',
      order: 30,
      access: LedgerAccess.dashboard,
      title: 'ledger:widget.balanceByMonth',
      size: 'wide',
      memberData: true,
      load: () => import('./components/BalanceByMonthWidget'),
    }),
    contribute(Extensions.dashboardWidgets, {
      id: 'ledger.recent',
      order: 40,
      access: LedgerAccess.dashboard,
      title: 'ledger:widget.recent',
      size: 'small',
      memberData: true,
      load: () => import('./components/RecentTransactionsWidget'),
    }),
  ],
});
