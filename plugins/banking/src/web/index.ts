import { defineWebPlugin } from '@portal/web';

/** The bank pages come in the next commit. */
export default defineWebPlugin({
  id: 'banking',
  i18n: { namespace: 'banking', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [],
});
