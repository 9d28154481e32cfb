import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { HELP_ACCESS } from '../access';

export default defineWebPlugin({
  id: 'help',
  i18n: { namespace: 'help', load: (lng) => import(`./i18n/${lng}.json`) },
  contributes: [contribute(Extensions.helpDialogs, { id: 'help.dialogs', order: 10, access: HELP_ACCESS, load: () => import('./components/HelpDialogs') })],
  routes: [{ path: '/help', access: HELP_ACCESS, title: 'help:title', nav: { label: 'help:nav', order: 900 }, load: () => import('./pages/HelpPage') }],
});
