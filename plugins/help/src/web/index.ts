import { defineWebPlugin } from '@portal/web';
import { HELP_ACCESS } from '../access';
import en from './i18n/en.json';

export default defineWebPlugin({
  id: 'help',
  i18n: { namespace: 'help', en },
  slots: { helpDialogs: () => import('./slots/HelpDialogs') },
  routes: [{ path: '/help', access: HELP_ACCESS, title: 'help:title', nav: { label: 'help:nav', order: 900 }, load: () => import('./pages/HelpPage') }],
});
