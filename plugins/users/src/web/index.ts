import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { USERS_ACCESS, USERS_PATH } from '../access';
import { USER_DETAIL_TAB_PATH } from './memberTabPaths';

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
    // /users/:id and its member tabs (/users/:id/details-profile ...): one route, so the same CareSupport gate.
    { path: USER_DETAIL_TAB_PATH, access: USERS_ACCESS, title: 'users:detail.title', load: () => import('./pages/UserDetailPage') },
  ],
  contributes: [contribute(Extensions.navGroups, { id: 'admin', label: 'users:nav.group', order: 800 })],
});
