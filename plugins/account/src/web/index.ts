import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { ACCOUNT_LINK_ACCESS, ACCOUNT_PAGE_ACCESS, AccountRoutes } from '../access';

export default defineWebPlugin({
  id: 'account',
  i18n: { namespace: 'account', load: (lng) => import(`./i18n/${lng}.json`) },
  contributes: [
    contribute(Extensions.loginDialogs, { id: 'account.register', name: 'register', load: () => import('./components/RegisterDialog') }),
    contribute(Extensions.loginDialogs, { id: 'account.forgotPassword', name: 'forgotPassword', load: () => import('./components/ForgotPasswordDialog') }),
  ],
  routes: [
    { path: AccountRoutes.activate, access: ACCOUNT_LINK_ACCESS, layout: 'bare', title: 'account:activate.title', load: () => import('./pages/ActivatePage') },
    { path: AccountRoutes.reset, access: ACCOUNT_LINK_ACCESS, layout: 'bare', title: 'account:reset.title', load: () => import('./pages/ResetPage') },
    {
      path: AccountRoutes.confirmEmail,
      access: ACCOUNT_LINK_ACCESS,
      layout: 'bare',
      title: 'account:email.confirmTitle',
      load: () => import('./pages/ConfirmEmailPage'),
    },
    {
      path: AccountRoutes.account,
      access: ACCOUNT_PAGE_ACCESS,
      title: 'account:page.title',
      // After the feature pages: '/' falls back to the first navigation entry a user may open.
      nav: { label: 'account:page.nav', order: 990 },
      load: () => import('./pages/AccountPage'),
    },
  ],
});
