import { defineWebPlugin } from '@portal/web';
import { PRINT_CARD_ROUTES } from '../access';

export default defineWebPlugin({
  id: 'print-card',
  i18n: { namespace: 'print-card', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: PRINT_CARD_ROUTES.map((r) => ({
    path: r.path,
    access: r.access,
    title: 'print-card:title',
    nav: { label: 'print-card:nav', order: 500 },
    load: () => import('./pages/PrintCardPage'),
  })),
});
