import { defineWebPlugin } from '@portal/web';
import { PRICE_FINDER_ACCESS, PRICE_FINDER_PATH } from '../access';

export default defineWebPlugin({
  id: 'price-finder',
  i18n: { namespace: 'price-finder', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: PRICE_FINDER_PATH,
      access: PRICE_FINDER_ACCESS,
      title: 'price-finder:title',
      nav: { label: 'price-finder:nav', order: 500 },
      load: () => import('./pages/PriceFinderPage'),
    },
  ],
});
