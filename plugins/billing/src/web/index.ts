import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import {
  BILLING_MEMBER_ACCESS,
  BILLING_PATH,
  BILLING_SUPPORT_ACCESS,
  BILLING_SUPPORT_CARD_ACCESS,
  PAYMENT_CARDS_PATH,
  PAYMENT_PATH,
  SUPPORT_CARD_PATH,
} from '../access';

export default defineWebPlugin({
  id: 'billing',
  i18n: { namespace: 'billing', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: BILLING_PATH,
      memberData: true,
      access: BILLING_MEMBER_ACCESS,
      title: 'billing:title.billing',
      nav: { label: 'billing:nav.billing', order: 600 },
      load: () => import('./pages/BillingPage'),
    },
    {
      path: PAYMENT_PATH,
      memberData: true,
      access: BILLING_MEMBER_ACCESS,
      title: 'billing:title.payment',
      nav: { label: 'billing:nav.payment', order: 610 },
      load: () => import('./pages/PaymentPage'),
    },
    { path: PAYMENT_CARDS_PATH, access: BILLING_MEMBER_ACCESS, title: 'billing:title.cards', memberData: true, load: () => import('./pages/PaymentPage') },
    { path: SUPPORT_CARD_PATH, access: BILLING_SUPPORT_CARD_ACCESS, title: 'billing:title.supportCard', load: () => import('./pages/SupportCardPage') },
  ],
  contributes: [
    contribute(Extensions.memberTabs, {
      id: 'details-subscription',
      order: 35,
      access: BILLING_SUPPORT_ACCESS,
      title: 'billing:support.subscriptionTab',
      load: () => import('./components/MemberSubscriptionTab'),
    }),
    contribute(Extensions.memberTabs, {
      id: 'details-card',
      order: 60,
      access: BILLING_SUPPORT_ACCESS,
      title: 'billing:support.cardTab',
      load: () => import('./components/MemberCardTab'),
    }),
  ],
});
