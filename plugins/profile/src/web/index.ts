import { defineWebPlugin } from '@portal/web';
import { PROFILE_ACCESS, PROFILE_PATH } from '../access';

export default defineWebPlugin({
  id: 'profile',
  i18n: { namespace: 'profile', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: PROFILE_PATH,
      access: PROFILE_ACCESS,
      title: 'profile:title',
      nav: { label: 'profile:nav', order: 250 },
      load: () => import('./pages/ProfilePage'),
    },
  ],
});
