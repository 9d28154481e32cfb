import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { QuoteAccess } from '../access';
import { prefetchRecentQuotes } from './components/RecentQuotesWidget.data';

export default defineWebPlugin({
  id: 'quote-rules',
  i18n: { namespace: 'quote', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    { path: '/quotes', access: QuoteAccess.quotes, title: 'quote:title', nav: { label: 'quote:nav', order: 100 }, load: () => import('./pages/QuotePage') },
    { path: '/quotes/:id', access: QuoteAccess.quotes, title: 'quote:title', load: () => import('./pages/QuotePage') },
  ],
  contributes: [
    contribute(Extensions.dashboardWidgets, {
      id: 'quote.recent',
      order: 10,
      access: QuoteAccess.quotes,
      title: 'quote:widget.title',
      size: 'wide',
      prefetch: prefetchRecentQuotes,
      load: () => import('./components/RecentQuotesWidget'),
    }),
  ],
});
