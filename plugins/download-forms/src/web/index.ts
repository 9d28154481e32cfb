import { defineWebPlugin } from '@portal/web';
import { DOWNLOAD_FORMS_ROUTES } from '../access';

export default defineWebPlugin({
  id: 'download-forms',
  i18n: { namespace: 'download-forms', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: DOWNLOAD_FORMS_ROUTES.map((r) => ({
    path: r.path,
    access: [r.role],
    title: 'download-forms:title',
    nav: { label: 'download-forms:nav', order: 520 },
    load: () => import('./pages/DownloadFormsPage'),
  })),
});
