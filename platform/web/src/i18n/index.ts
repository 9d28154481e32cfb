import {
  type BrandManifest,
  cookieValue,
  detectLanguage,
  isLanguage,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type Language,
  languageOf,
  localeOf,
  setFormatLocale,
} from '@portal/core';
import i18next, { type BackendModule, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import coreEn from './en.json';

export const KERNEL_NAMESPACE = 'core';
/** localStorage key of the language the user chose in this browser (the cookie that repeats it has the same name). */
export const LANGUAGE_STORAGE_KEY = LANGUAGE_COOKIE;
export { detectLanguage };

type Resources = Record<string, unknown>;
export type NamespaceLoader = (lng: Language) => Promise<{ default: Resources }>;
/** One i18next namespace and its per-language loader (a dynamic import, so each language is its own chunk). */
export interface LazyNamespace {
  namespace: string;
  load: NamespaceLoader;
}

/** The kernel's own strings: English is in the entry chunk (the sign-in page needs it at once), Spanish loads on demand. */
export const kernelNamespace: LazyNamespace = {
  namespace: KERNEL_NAMESPACE,
  load: (lng) => (lng === 'en' ? Promise.resolve({ default: coreEn }) : import('./es.json')),
};

/** The kit's strings (form fields, grid): loaded with the plugin pages and contributions that use the kit. */
export const kitNamespace: LazyNamespace = { namespace: 'kit', load: (lng) => import(`../kit/i18n/${lng}.json`) };

/** Sets a dotted key inside a nested resource object (brand copy overrides). */
function setPath(target: Resources, path: string, value: string) {
  const parts = path.split('.');
  let node = target;
  for (const p of parts.slice(0, -1)) {
    const next = node[p];
    node[p] = typeof next === 'object' && next !== null ? { ...(next as Resources) } : {};
    node = node[p] as Resources;
  }
  node[parts[parts.length - 1] as string] = value;
}

/**
 * A namespace's resources as the brand shows them: the brand's copy overrides ('namespace:key' to its text in each
 * language) on top, in the language of the resources.
 */
export function withBrandCopy(namespace: string, lng: Language, resources: Resources, copy: BrandManifest['copy']): Resources {
  const prefix = `${namespace}:`;
  const overrides = Object.entries(copy).filter(([key]) => key.startsWith(prefix));
  if (overrides.length === 0) return resources;
  const result = structuredClone(resources);
  for (const [key, text] of overrides) setPath(result, key.slice(prefix.length), text[lng]);
  return result;
}

/** The plural categories of each language, asked of Intl once per language rather than once per namespace loaded. */
const pluralCategories = new Map<Language, readonly string[]>();

/**
 * Fills the plural forms a language needs beyond English's one/other from the `_other` form: Spanish has a
 * 'many' form (1,000,000) that i18next would otherwise not find. The files keep the same keys in every language.
 * Copy on write: an object that needs no form added is returned as it is (every English file), so loading a
 * namespace does not copy its strings on the landing page's path; the resources given are never changed.
 */
export function completePlurals(lng: Language, resources: Resources): Resources {
  const categories = pluralCategories.get(lng) ?? new Intl.PluralRules(lng).resolvedOptions().pluralCategories.filter((c) => c !== 'zero');
  pluralCategories.set(lng, categories);
  const walk = (node: Resources): Resources => {
    let out: Resources | null = null;
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const done = walk(value as Resources);
        if (done !== value) {
          out ??= { ...node };
          out[key] = done;
        }
      } else if (key.endsWith('_other')) {
        const base = key.slice(0, -'_other'.length);
        for (const c of categories) {
          const form = `${base}_${c}`;
          if (node[form] !== undefined && node[form] !== null) continue;
          out ??= { ...node };
          out[form] = value;
        }
      }
    }
    return out ?? node;
  };
  return walk(resources);
}

function storedLanguage(): string | null {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    return null; // storage disabled: the browser's language decides
  }
}

/** Repeats the language choice for the server, which sends the sign-in page prerendered in it (a year, this site only). */
function writeLanguageCookie(lng: Language) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every supported browser; a language code only
  if (typeof document !== 'undefined') document.cookie = `${LANGUAGE_COOKIE}=${lng}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/**
 * This browser's language (see detectLanguage). A choice stored without its cookie (made before the cookie existed,
 * or with cookies cleared since) gets the cookie again, so the next sign-in page comes prerendered in it. With no
 * choice stored (storage cleared or blocked) the cookie decides, as it did for the server's prerender of this page:
 * the page goes on in the language it was sent in, rather than drawing it again in the browser's.
 */
export function initialLanguage(): Language {
  const nav = globalThis.navigator;
  const stored = storedLanguage();
  const cookie = typeof document !== 'undefined' ? cookieValue(document.cookie, LANGUAGE_COOKIE) : null;
  const lng = detectLanguage(isLanguage(stored) ? stored : cookie, nav ? (nav.languages?.length ? nav.languages : [nav.language]) : []);
  if (stored === lng && typeof document !== 'undefined' && cookie !== lng) writeLanguageCookie(lng);
  return lng;
}

/** An i18next backend over the declared loaders; loaded resources get the brand copy and the plural forms. */
function loaderBackend(loaders: ReadonlyMap<string, NamespaceLoader>, copy: BrandManifest['copy']): BackendModule {
  return {
    type: 'backend',
    init: () => {},
    read: (language, namespace, callback) => {
      const load = loaders.get(namespace);
      const lng = languageOf(language);
      if (!load || !lng) {
        callback(new Error(`no i18n namespace '${namespace}' in language '${language}'`), false);
        return;
      }
      load(lng).then(
        (m) => callback(null, completePlurals(lng, withBrandCopy(namespace, lng, m.default, copy))),
        (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
      );
    },
  };
}

interface Active {
  i18n: i18n;
  /** Plugin id to its namespace. */
  plugins: ReadonlyMap<string, string>;
  /** Namespaces every plugin page and contribution may use (the kit). */
  shared: readonly string[];
}
// One app per page: the kernel's instance, set by createI18n, for loaders that run outside React.
let active: Active | null = null;

function requireActive(): Active {
  if (!active) throw new Error('i18n is not started: call startApp first');
  return active;
}

/** Loads namespaces in the current language (and keeps them loaded across language switches). */
export async function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  const { i18n } = requireActive();
  const missing = namespaces.filter((ns) => !i18n.hasLoadedNamespace(ns));
  if (missing.length > 0) await i18n.loadNamespaces(missing);
}

/** Loads a plugin's namespace and the shared ones (the kit) before its page or contribution renders. */
export function ensurePluginNamespace(pluginId: string): Promise<void> {
  const { plugins, shared } = requireActive();
  const namespace = plugins.get(pluginId);
  if (namespace === undefined) return Promise.reject(new Error(`unknown plugin '${pluginId}'`));
  return loadNamespaces([namespace, ...shared]);
}

/** Wraps a plugin's lazy loader so its namespace loads in parallel with the code: `lazy(withPluginNamespace(id, loader))`. */
export function withPluginNamespace<T>(pluginId: string, loader: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([loader(), ensurePluginNamespace(pluginId)]))[0];
}

function applyLanguage(lng: string) {
  const language = languageOf(lng) ?? 'en';
  setFormatLocale(localeOf(language));
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export interface I18nSetup {
  /** The plugins' namespaces, by plugin id. */
  plugins: readonly { id: string; i18n: LazyNamespace }[];
  /** Namespaces shared by every plugin page and contribution (the kit). */
  shared?: readonly LazyNamespace[];
  brand: Pick<BrandManifest, 'copy' | 'displayName'>;
  language?: Language;
}

/**
 * The kernel's i18next instance. Only the kernel namespace is loaded up front (synchronously in English);
 * every other namespace loads on demand through its declared loader. Wait for `ready` before rendering.
 */
export function createI18n({ plugins, shared = [], brand, language = 'en' }: I18nSetup): { i18n: i18n; ready: Promise<void> } {
  const instance = i18next.createInstance();
  const loaders = new Map<string, NamespaceLoader>([[KERNEL_NAMESPACE, kernelNamespace.load]]);
  for (const ns of [...shared, ...plugins.map((p) => p.i18n)]) loaders.set(ns.namespace, ns.load);
  instance.on('languageChanged', applyLanguage);
  const init = instance
    .use(loaderBackend(loaders, brand.copy))
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: [...LANGUAGES],
      // Every namespace has every key in every language (tests/i18n-keys.test.ts), so no English is fetched for Spanish.
      fallbackLng: false,
      resources: { en: { [KERNEL_NAMESPACE]: completePlurals('en', withBrandCopy(KERNEL_NAMESPACE, 'en', coreEn, brand.copy)) } },
      partialBundledLanguages: true,
      ns: [KERNEL_NAMESPACE],
      defaultNS: KERNEL_NAMESPACE,
      interpolation: { escapeValue: false, defaultVariables: { brand: brand.displayName } },
      initAsync: false,
      // Each namespace is a small chunk of this site: read them all at once. With i18next's default (10) the signed-in
      // layout's navigation strings queued behind each other, one after another on the landing page's critical path.
      maxParallelReads: 64,
      returnNull: false,
      showSupportNotice: false,
    });
  active = { i18n: instance, plugins: new Map(plugins.map((p) => [p.id, p.i18n.namespace])), shared: shared.map((s) => s.namespace) };
  const ready = init.then(async () => {
    // The kernel strings of a language that failed to load: English, which is in the bundle.
    if (!instance.hasResourceBundle(instance.language, KERNEL_NAMESPACE)) await instance.changeLanguage('en');
  });
  return { i18n: instance, ready };
}

/**
 * Switches the language without a reload: the namespaces in use load in the new language first; the choice is
 * remembered. `keep`, given while a user is signed in, gives the choice to their account too (KernelApi.language), so
 * e-mails and text messages written to them follow it; a failure there leaves the switch as it is (the next sign-in
 * stores the language it is made in).
 */
export async function changeAppLanguage(instance: i18n, lng: Language, keep?: (lng: Language) => Promise<unknown>): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    // storage disabled: the choice lasts until the page is reloaded
  }
  writeLanguageCookie(lng);
  await instance.changeLanguage(lng);
  if (keep) await keep(lng).catch(() => {});
}
