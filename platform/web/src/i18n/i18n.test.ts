import { formatLocale, type Language } from '@portal/core';
import { deferred } from '@portal/testing/deferred';
import { describe, expect, it, vi } from 'vitest';
import {
  changeAppLanguage,
  completePlurals,
  createI18n,
  detectLanguage,
  ensurePluginNamespace,
  initialLanguage,
  type LazyNamespace,
  loadNamespaces,
  withBrandCopy,
  withPluginNamespace,
} from '.';

const HELP = {
  en: { title: 'Help', intro: 'Default intro', welcome: 'Welcome to {{brand}}', rows_one: '{{count}} row', rows_other: '{{count}} rows' },
  es: { title: 'Ayuda', intro: 'Introducción', welcome: 'Bienvenido a {{brand}}', rows_one: '{{count}} fila', rows_other: '{{count}} filas' },
};
const KIT = { en: { close: 'Close' }, es: { close: 'Cerrar' } };

/** A namespace whose loader records each language asked for. */
function recorded(namespace: string, texts: Record<Language, Record<string, unknown>>) {
  const calls: Language[] = [];
  const ns: LazyNamespace = {
    namespace,
    load: async (lng) => {
      calls.push(lng);
      return { default: texts[lng] };
    },
  };
  return { ns, calls };
}

function setup(language: Language = 'en') {
  const help = recorded('help', HELP);
  const kit = recorded('kit', KIT);
  const brand = {
    displayName: 'CareGuard',
    copy: { 'help:intro': { en: 'Brand intro', es: 'Introducción de la marca' }, 'core:login.title': { en: 'Log on', es: 'Acceder' } },
  };
  const { i18n, ready } = createI18n({ plugins: [{ id: 'help-plugin', i18n: help.ns }], shared: [kit.ns], brand, language });
  return { i18n, ready, help, kit };
}

describe('brand copy and plural forms', () => {
  it("overrides one namespace's text in the language of the resources, and leaves the source and other namespaces alone", () => {
    const source = { intro: 'Default', nested: { a: 'x' } };
    const copy = {
      'help:intro': { en: 'Brand', es: 'Marca' },
      'help:nested.a': { en: 'y', es: 'y-es' },
      'claims:intro': { en: 'Other', es: 'Otro' },
    };
    expect(withBrandCopy('help', 'en', source, copy)).toEqual({ intro: 'Brand', nested: { a: 'y' } });
    expect(withBrandCopy('help', 'es', source, copy)).toEqual({ intro: 'Marca', nested: { a: 'y-es' } });
    expect(source).toEqual({ intro: 'Default', nested: { a: 'x' } });
    expect(withBrandCopy('account', 'en', source, copy)).toBe(source);
  });

  it("gives Spanish its 'many' form from the 'other' form, nested too", () => {
    const es = completePlurals('es', { n_one: 'una', n_other: 'varias', deep: { m_one: 'a', m_other: 'b' }, plain: 'x' });
    expect(es).toEqual({ n_one: 'una', n_other: 'varias', n_many: 'varias', deep: { m_one: 'a', m_other: 'b', m_many: 'b' }, plain: 'x' });
    expect(completePlurals('en', { n_one: 'one', n_other: 'other' })).toEqual({ n_one: 'one', n_other: 'other' });
  });

  it('copies only the objects that get a form added, and never changes the resources given', () => {
    const fits = { a: { n_one: 'one', n_other: 'other' }, b: { plain: 'x', list: ['y'] } };
    expect(completePlurals('en', fits)).toBe(fits);
    const given = { a: { n_one: 'una', n_other: 'varias' }, b: { plain: 'x' }, c: null };
    const es = completePlurals('es', given);
    expect(es).not.toBe(given);
    expect(es.a).toEqual({ n_one: 'una', n_other: 'varias', n_many: 'varias' });
    expect(es.b).toBe(given.b);
    expect(es.c).toBeNull();
    expect(given).toEqual({ a: { n_one: 'una', n_other: 'varias' }, b: { plain: 'x' }, c: null });
    // An English key with only its 'other' form gets 'one' from it, as before.
    expect(completePlurals('en', { n_other: 'other' })).toEqual({ n_other: 'other', n_one: 'other' });
  });
});

describe('detectLanguage', () => {
  it('prefers the stored choice, then a Spanish browser, else English', () => {
    expect(detectLanguage('es', ['en-US'])).toBe('es');
    expect(detectLanguage('en', ['es-MX'])).toBe('en');
    expect(detectLanguage(null, ['es-US', 'en'])).toBe('es');
    expect(detectLanguage(null, ['es'])).toBe('es');
    expect(detectLanguage(null, ['fr-FR', 'es'])).toBe('en');
    expect(detectLanguage('de', ['en-GB'])).toBe('en');
    expect(detectLanguage(null, [])).toBe('en');
  });
});

describe('createI18n: lazy namespaces', () => {
  it('has the kernel strings at once in English, with the brand copy and the {{brand}} variable', () => {
    const { i18n, help } = setup();
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.t('login.title')).toBe('Log on');
    expect(i18n.t('login.intro')).toBe('Welcome to CareGuard. Sign in to manage your account.');
    expect(help.calls).toEqual([]);
  });

  it("loads a plugin's namespace with the shared ones on demand, once, with the brand copy", async () => {
    const { i18n, help, kit } = setup();
    await ensurePluginNamespace('help-plugin');
    await ensurePluginNamespace('help-plugin');
    expect(help.calls).toEqual(['en']);
    expect(kit.calls).toEqual(['en']);
    expect(i18n.t('help:intro')).toBe('Brand intro');
    expect(i18n.t('help:welcome')).toBe('Welcome to CareGuard');
    expect(i18n.t('kit:close')).toBe('Close');
    await expect(ensurePluginNamespace('nope')).rejects.toThrow("unknown plugin 'nope'");
  });

  it("reads every namespace asked for at once (the signed-in layout asks for every plugin's), none queued behind another", async () => {
    const started: string[] = [];
    const gate = deferred();
    const plugins = Array.from({ length: 24 }, (_, i) => ({
      id: `p${i}`,
      i18n: {
        namespace: `ns${i}`,
        load: async () => {
          started.push(`ns${i}`);
          await gate.promise;
          return { default: { title: `T${i}` } };
        },
      } satisfies LazyNamespace,
    }));
    const { i18n } = createI18n({ plugins, brand: { displayName: 'CareGuard', copy: {} } });
    const loading = loadNamespaces(plugins.map((p) => p.i18n.namespace));
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toHaveLength(24);
    gate.release();
    await loading;
    expect(i18n.t('ns23:title')).toBe('T23');
  });

  it('loads a contribution and its namespace together', async () => {
    const { i18n, help } = setup();
    const module = await withPluginNamespace('help-plugin', async () => ({ default: 'component' }))();
    expect(module.default).toBe('component');
    expect(help.calls).toEqual(['en']);
    expect(i18n.hasLoadedNamespace('help')).toBe(true);
  });

  it('switches language without losing a namespace: those in use load in the new language first', async () => {
    const { i18n, help } = setup();
    await loadNamespaces(['help']);
    await changeAppLanguage(i18n, 'es');
    expect(i18n.language).toBe('es');
    expect(help.calls).toEqual(['en', 'es']);
    // The brand's copy in Spanish, over the kernel's and the plugin's Spanish.
    expect(i18n.t('login.title')).toBe('Acceder');
    expect(i18n.t('help:intro')).toBe('Introducción de la marca');
    expect(i18n.t('help:welcome')).toBe('Bienvenido a CareGuard');
    expect(i18n.t('help:rows', { count: 1 })).toBe('1 fila');
    expect(i18n.t('help:rows', { count: 1_000_000 })).toBe('1000000 filas');
    expect(formatLocale()).toBe('es-US');
    await changeAppLanguage(i18n, 'en');
    expect(i18n.t('help:intro')).toBe('Brand intro');
    expect(formatLocale()).toBe('en-US');
  });

  it("gives a signed-in user's choice to their account once switched (keep), and a failure there leaves the switch as made", async () => {
    const { i18n } = setup();
    const kept: string[] = [];
    await changeAppLanguage(i18n, 'es', async (lng) => {
      expect(i18n.language).toBe('es');
      kept.push(lng);
    });
    expect(kept).toEqual(['es']);
    await changeAppLanguage(i18n, 'en', () => Promise.reject(new Error('offline')));
    expect(i18n.language).toBe('en');
  });

  it('repeats the chosen language in a cookie, so the server sends the sign-in page prerendered in it', async () => {
    const { i18n } = setup();
    const fake = { cookie: '', documentElement: { lang: 'en' } };
    vi.stubGlobal('document', fake);
    try {
      await changeAppLanguage(i18n, 'es');
      expect(fake.cookie).toBe('cq.lang=es; Path=/; Max-Age=31536000; SameSite=Lax');
      expect(fake.documentElement.lang).toBe('es');
      await changeAppLanguage(i18n, 'en');
      expect(fake.cookie).toMatch(/^cq\.lang=en;/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('gives a stored language choice without its cookie the cookie at start, and leaves a matching cookie alone', () => {
    const storage = (value: string | null) => ({ getItem: (key: string) => (key === 'cq.lang' ? value : null) });
    // A document whose cookie writes are counted (the browser keeps the other cookies; the fake keeps the last write).
    const fakeDocument = (cookie: string) => {
      const doc = { writes: 0, value: cookie };
      Object.defineProperty(doc, 'cookie', {
        get: () => doc.value,
        set: (v: string) => {
          doc.writes++;
          doc.value = v;
        },
      });
      return doc as typeof doc & { cookie: string };
    };
    try {
      // Chosen before the cookie existed: the cookie is written, so the server's prerender follows the choice.
      let doc = fakeDocument('other=1');
      vi.stubGlobal('localStorage', storage('es'));
      vi.stubGlobal('document', doc);
      expect(initialLanguage()).toBe('es');
      expect(doc.writes).toBe(1);
      expect(doc.cookie).toBe('cq.lang=es; Path=/; Max-Age=31536000; SameSite=Lax');
      // The cookie already says so: nothing is written.
      doc = fakeDocument('other=1; cq.lang=es');
      vi.stubGlobal('document', doc);
      expect(initialLanguage()).toBe('es');
      expect(doc.writes).toBe(0);
      // No choice stored (the browser's language decides) or a stored value that is not a language: no cookie.
      for (const stored of [null, 'xx']) {
        doc = fakeDocument('');
        vi.stubGlobal('localStorage', storage(stored));
        vi.stubGlobal('document', doc);
        expect(initialLanguage()).toBe('en');
        expect(doc.writes).toBe(0);
        // A cookie with no stored choice decides, as it did for the server's prerender; it is left as it is.
        doc = fakeDocument('cq.lang=es');
        vi.stubGlobal('document', doc);
        expect(initialLanguage()).toBe('es');
        expect(doc.writes).toBe(0);
      }
      // A stored choice outranks a cookie that says otherwise, and the cookie is put right.
      doc = fakeDocument('cq.lang=es');
      vi.stubGlobal('localStorage', storage('en'));
      vi.stubGlobal('document', doc);
      expect(initialLanguage()).toBe('en');
      expect(doc.cookie).toBe('cq.lang=en; Path=/; Max-Age=31536000; SameSite=Lax');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('starts in Spanish once the Spanish kernel strings have loaded', async () => {
    const { i18n, ready } = setup('es');
    await ready;
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.t('login.title')).toBe('Acceder'); // the brand's Spanish copy
    expect(i18n.t('login.intro')).toBe('Le damos la bienvenida a CareGuard. Inicie sesión para administrar su cuenta.');
    expect(formatLocale()).toBe('es-US');
  });
});
