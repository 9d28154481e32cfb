import { defineWebPlugin } from '@portal/web';
import { BILLING_MEMBER_ACCESS, BILLING_PATH, PAYMENT_CARDS_PATH, PAYMENT_PATH } from '../access';

export default defineWebPlugin({
  id: 'billing',
  i18n: { namespace: 'billing', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: BILLING_PATH,
      access: BILLING_MEMBER_ACCESS,
      title: 'billing:title.billing',
      nav: { label: 'billing:nav.billing', order: 600 },
      load: () => import('./pages/BillingPage'),
    },
    {
      path: PAYMENT_PATH,
      access: BILLING_MEMBER_ACCESS,
      title: 'billing:title.payment',
      nav: { label: 'billing:nav.payment', order: 610 },
      load: () => import('./pages/PaymentPage'),
    },
    { path: PAYMENT_CARDS_PATH, access: BILLING_MEMBER_ACCESS, title: 'billing:title.cards', load: () => import('./pages/PaymentPage') },
  ],
});
