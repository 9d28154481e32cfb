import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { USER_DETAIL_PATH, USERS_ACCESS, USERS_PATH } from '../access';

export default defineWebPlugin({
  id: 'users',
  i18n: { namespace: 'users', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: USERS_PATH,
      access: USERS_ACCESS,
      title: 'users:title',
      nav: { label: 'users:nav.users', order: 10, group: 'admin' },
      load: () => import('./pages/UsersPage'),
    },
    { path: USER_DETAIL_PATH, access: USERS_ACCESS, title: 'users:detail.title', load: () => import('./pages/UserDetailPage') },
  ],
  contributes: [contribute(Extensions.navGroups, { id: 'admin', label: 'users:nav.group', order: 800 })],
});
