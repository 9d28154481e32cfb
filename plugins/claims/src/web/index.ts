import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { ClaimsAccess } from '../access';
import { prefetchRecentClaims } from './components/RecentClaimsWidget.data';

export default defineWebPlugin({
  id: 'claims',
  i18n: { namespace: 'claims', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: '/claims',
      access: ClaimsAccess.bills,
      title: 'claims:title.bills',
      nav: { label: 'claims:nav.bills', order: 100 },
      load: () => import('./pages/ClaimsPage'),
    },
    { path: '/claims/:id', access: ClaimsAccess.bills, title: 'claims:title.detail', load: () => import('./pages/ClaimDetailPage') },
    {
      path: '/claims-new',
      access: ClaimsAccess.create,
      title: 'claims:title.new',
      nav: { label: 'claims:nav.newBill', order: 110 },
      load: () => import('./pages/NewClaimPage'),
    },
    {
      path: '/pendingclaims',
      access: ClaimsAccess.pending,
      title: 'claims:title.pending',
      nav: { label: 'claims:nav.pending', order: 120 },
      load: () => import('./pages/PendingClaimsPage'),
    },
  ],
  contributes: [
    contribute(Extensions.dashboardWidgets, {
      id: 'claims.recent',
      order: 10,
      access: ClaimsAccess.recent,
      title: 'claims:widget.title',
      size: 'wide',
      prefetch: prefetchRecentClaims,
      load: () => import('./components/RecentClaimsWidget'),
    }),
    contribute(Extensions.searchProviders, {
      id: 'claims.search',
      order: 10,
      access: ClaimsAccess.globalSearch,
      load: () => import('./components/claimsSearchProvider'),
    }),
  ],
});
