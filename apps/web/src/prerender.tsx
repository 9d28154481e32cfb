import { brand, plugins } from 'virtual:portal-brand';
import type { Language } from '@portal/core';
import { kitNamespace } from '@portal/web';
import { prerenderPage } from '@portal/web/prerender';

/** The build's prerender of one page of this brand (apps/web/build.ts), with the options main.tsx starts the app with. */
export const render = (path: string, language: Language): Promise<string> => prerenderPage({ brand, plugins, extraNamespaces: [kitNamespace], language, path });
