import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { MEMBER_ADMIN_ROLES, PROFILE_ACCESS, PROFILE_PATH, SUPPORT_ADDRESS_ACCESS } from '../access';

export default defineWebPlugin({
  id: 'profile',
  i18n: { namespace: 'profile', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: PROFILE_PATH,
      memberData: true,
      access: PROFILE_ACCESS,
      title: 'profile:title',
      nav: { label: 'profile:nav', order: 250 },
      load: () => import('./pages/ProfilePage'),
    },
  ],
  contributes: [
    contribute(Extensions.memberTabs, {
      id: 'details-profile',
      order: 10,
      access: MEMBER_ADMIN_ROLES,
      title: 'profile:tabs.details',
      load: () => import('./components/MemberProfileTab'),
    }),
    contribute(Extensions.memberTabs, {
      id: 'details-addresses',
      order: 20,
      access: SUPPORT_ADDRESS_ACCESS,
      title: 'profile:tabs.addresses',
      load: () => import('./components/MemberAddressesTab'),
    }),
  ],
});
