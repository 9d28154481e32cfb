import { defineWebPlugin } from '@portal/web';
import { DOCUMENTS_ACCESS, DOCUMENTS_PATH, STATEMENTS_PATH } from '../access';

export default defineWebPlugin({
  id: 'documents',
  i18n: { namespace: 'documents', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: STATEMENTS_PATH,
      memberData: true,
      access: DOCUMENTS_ACCESS,
      title: 'documents:statements.title',
      nav: { label: 'documents:statements.nav', order: 310 },
      load: () => import('./pages/StatementsPage'),
    },
    {
      path: DOCUMENTS_PATH,
      memberData: true,
      access: DOCUMENTS_ACCESS,
      title: 'documents:documents.title',
      nav: { label: 'documents:documents.nav', order: 320 },
      load: () => import('./pages/DocumentsPage'),
    },
  ],
});
