import { brand, plugins } from 'virtual:portal-brand';
import { startApp } from '@portal/web';
import kitEn from '@portal/web/kit/en';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
startApp({ brand, plugins, root, extraNamespaces: [{ namespace: 'kit', en: kitEn }] });
