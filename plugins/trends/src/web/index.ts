import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { DASHBOARD_PATH, TREND_PATH, TrendsAccess } from '../access';
import { prefetchFundingDate } from './components/FundingDateWidget.data';

export default defineWebPlugin({
  id: 'trends',
  i18n: { namespace: 'trends', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: DASHBOARD_PATH,
      access: TrendsAccess.dashboard,
      title: 'trends:dashboard.title',
      nav: { label: 'trends:dashboard.nav', order: 1 },
      shows: [Extensions.dashboardWidgets],
      load: () => import('./pages/DashboardPage'),
    },
    {
      path: TREND_PATH,
      access: TrendsAccess.trend,
      title: 'trends:trend.title',
      nav: { label: 'trends:trend.nav', order: 2 },
      shows: [Extensions.trendCharts],
      load: () => import('./pages/TrendPage'),
    },
  ],
  contributes: [
    contribute(Extensions.trendCharts, {
      id: 'trends.bills',
      order: 10,
      access: TrendsAccess.claimsDashboard,
      title: 'trends:trend.bills',
      height: 1100,
      load: () => import('./components/AllBillTrendCharts'),
    }),
    contribute(Extensions.trendCharts, {
      id: 'trends.memberBills',
      order: 30,
      access: TrendsAccess.memberBills,
      title: 'trends:trend.memberBills',
      height: 800,
      memberData: true,
      load: () => import('./components/MemberBillTrendCharts'),
    }),
    contribute(Extensions.dashboardWidgets, {
      id: 'trends.fundingDate',
      order: 30,
      access: TrendsAccess.claimsDashboard,
      title: 'trends:funding.title',
      size: 'small',
      prefetch: prefetchFundingDate,
      load: () => import('./components/FundingDateWidget'),
    }),
    contribute(Extensions.dashboardWidgets, {
      id: 'trends.quickLinks',
      order: 90,
      access: TrendsAccess.quickLinks,
      title: 'trends:links.title',
      size: 'small',
      load: () => import('./components/QuickLinksWidget'),
    }),
  ],
});
