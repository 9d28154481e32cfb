import { defineWebPlugin } from '@portal/web';
import { COUPON_CREATE_PATH, COUPONS_ACCESS, COUPONS_PATH } from '../access';

export default defineWebPlugin({
  id: 'coupons',
  i18n: { namespace: 'coupons', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: COUPONS_PATH,
      access: COUPONS_ACCESS,
      title: 'coupons:title.list',
      nav: { label: 'coupons:nav', order: 500 },
      load: () => import('./pages/CouponsPage'),
    },
    { path: COUPON_CREATE_PATH, access: COUPONS_ACCESS, title: 'coupons:title.create', load: () => import('./pages/CouponCreatePage') },
    { path: '/coupons/:id', access: COUPONS_ACCESS, title: 'coupons:title.detail', load: () => import('./pages/CouponDetailPage') },
    { path: '/coupons/:id/edit', access: COUPONS_ACCESS, title: 'coupons:title.edit', load: () => import('./pages/CouponEditPage') },
  ],
});
