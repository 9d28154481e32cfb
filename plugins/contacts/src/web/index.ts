import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { CONTACTS_ACCESS, CONTACTS_PATH, CONTACTS_SUPPORT_ACCESS } from '../access';

export default defineWebPlugin({
  id: 'contacts',
  i18n: { namespace: 'contacts', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: CONTACTS_PATH,
      memberData: true,
      access: CONTACTS_ACCESS,
      title: 'contacts:title',
      nav: { label: 'contacts:nav', order: 300 },
      load: () => import('./pages/ContactsPage'),
    },
  ],
  contributes: [
    contribute(Extensions.memberTabs, {
      id: 'details-contacts',
      order: 40,
      access: CONTACTS_SUPPORT_ACCESS,
      title: 'contacts:memberTab.title',
      load: () => import('./components/MemberContactsTab'),
    }),
  ],
});
