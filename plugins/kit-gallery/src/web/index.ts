import { defineWebPlugin } from '@portal/web';
import { KIT_GALLERY_ACCESS } from '../access';

export default defineWebPlugin({
  id: 'kit-gallery',
  i18n: { namespace: 'kit-gallery', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: '/kit-gallery',
      access: KIT_GALLERY_ACCESS,
      title: 'kit-gallery:title',
      nav: { label: 'kit-gallery:nav', order: 950 },
      load: () => import('./pages/KitGalleryPage'),
    },
  ],
});
