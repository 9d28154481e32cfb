import { brand, plugins } from 'virtual:portal-brand';
import { kitNamespace, startApp } from '@portal/web';

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
startApp({ brand, plugins, root, extraNamespaces: [kitNamespace] });
