import type { BrandManifest } from '@portal/core';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import coreEn from './en.json';

export const KERNEL_NAMESPACE = 'core';

export interface NamespaceResources {
  namespace: string;
  en: Record<string, unknown>;
}

/** Sets a dotted key inside a nested resource object (brand copy overrides). */
function setPath(target: Record<string, unknown>, path: string, value: string) {
  const parts = path.split('.');
  let node = target;
  for (const p of parts.slice(0, -1)) {
    const next = node[p];
    node[p] = typeof next === 'object' && next !== null ? { ...(next as Record<string, unknown>) } : {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts[parts.length - 1] as string] = value;
}

/** Builds the resources: kernel namespace, one namespace per plugin, then the brand's copy overrides on top. */
export function buildResources(namespaces: readonly NamespaceResources[], copy: BrandManifest['copy']): Record<string, Record<string, unknown>> {
  const en: Record<string, Record<string, unknown>> = { [KERNEL_NAMESPACE]: structuredClone(coreEn) };
  for (const ns of namespaces) en[ns.namespace] = structuredClone(ns.en);
  for (const [key, text] of Object.entries(copy)) {
    const [ns, path] = key.split(':') as [string, string];
    en[ns] ??= {};
    setPath(en[ns] as Record<string, unknown>, path, text);
  }
  return en;
}

export function createI18n(namespaces: readonly NamespaceResources[], brand: Pick<BrandManifest, 'copy' | 'displayName'>): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: buildResources(namespaces, brand.copy) },
    ns: [KERNEL_NAMESPACE, ...namespaces.map((n) => n.namespace)],
    defaultNS: KERNEL_NAMESPACE,
    interpolation: { escapeValue: false, defaultVariables: { brand: brand.displayName } },
    initAsync: false,
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}
