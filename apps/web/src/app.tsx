import { brand, plugins } from 'virtual:portal-brand';
import { kitNamespace, startApp } from '@portal/web';

/** Starts this brand's app in `root` (loaded by main.tsx). */
export function start(root: HTMLElement) {
  startApp({ brand, plugins, root, extraNamespaces: [kitNamespace] });
}
