import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { BankingAccess, BankingPaths } from '../access';
import { prefetchCardBankCheck } from './components/CardBankCheckWidget.data';

export default defineWebPlugin({
  id: 'banking',
  i18n: { namespace: 'banking', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: BankingPaths.banks,
      memberData: true,
      access: BankingAccess.pages,
      title: 'banking:title.banks',
      nav: { label: 'banking:nav.banks', order: 620 },
      load: () => import('./pages/BanksPage'),
    },
    { path: BankingPaths.add, access: BankingAccess.pages, title: 'banking:title.add', memberData: true, load: () => import('./pages/AddBankPage') },
    {
      path: BankingPaths.fastlink,
      memberData: true,
      access: BankingAccess.fastlink,
      title: 'banking:title.fastlink',
      nav: { label: 'banking:nav.fastlink', order: 630 },
      load: () => import('./pages/FastLinkPage'),
    },
  ],
  contributes: [
    contribute(Extensions.dashboardWidgets, {
      id: 'banking.cardBankCheck',
      order: 5,
      access: BankingAccess.dashboardCheck,
      title: 'banking:widget.title',
      size: 'small',
      prefetch: prefetchCardBankCheck,
      load: () => import('./components/CardBankCheckWidget'),
    }),
  ],
});
