import { defineWebPlugin } from '@portal/web';
import { KIT_GALLERY_ACCESS } from '../access';
import en from './i18n/en.json';

export default defineWebPlugin({
  id: 'kit-gallery',
  i18n: { namespace: 'kit-gallery', en },
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
