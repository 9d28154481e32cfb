import { type Catalogue, type Catalogues, interpolate, LANGUAGES, type Language, type Message, placeholders, Text } from '@portal/core';
import i18next, { type i18n } from 'i18next';

/** One source of translations: the kernel's or a plugin's catalogues. */
export interface CatalogueSource {
  /** 'kernel' or the plugin's id, to name it in a mistake. */
  source: string;
  catalogues: Catalogues;
}

export interface Translator {
  /** The message in the language: its translation, else its English text; values put in either way. */
  t(message: Message, language: Language): string;
  /** Whether the language has a translation of this English text (or template). */
  has(english: string, language: Language): boolean;
}

const NAMESPACE = 'server';

/**
 * The server's messages through i18next, every source's catalogues in one namespace: a message thrown by one plugin's
 * service may be answered by another plugin's route. Two sources may translate the same English text only the same
 * way, and a translation must keep its template's placeholders; either mistake stops the server at start-up.
 */
export function createTranslator(sources: readonly CatalogueSource[]): Translator {
  const merged: Partial<Record<Language, Record<string, string>>> = {};
  const from: Record<string, string> = {};
  for (const { source, catalogues } of sources) {
    for (const [language, catalogue] of Object.entries(catalogues) as [Language, Catalogue][]) {
      const into = merged[language] ?? {};
      merged[language] = into;
      for (const [english, translated] of Object.entries(catalogue)) {
        const want = placeholders(english).sort().join(',');
        if (placeholders(translated).sort().join(',') !== want)
          throw new Error(`${source}: the ${language} text of "${english}" must use the placeholders {{${want.split(',').join('}}, {{')}}} and no others`);
        const earlier = into[english];
        if (earlier !== undefined && earlier !== translated)
          throw new Error(`${source} and ${from[`${language}\0${english}`]} translate "${english}" differently into ${language}`);
        into[english] = translated;
        from[`${language}\0${english}`] = source;
      }
    }
  }
  const instance: i18n = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(Object.entries(merged).map(([language, catalogue]) => [language, { [NAMESPACE]: catalogue }])),
    supportedLngs: [...LANGUAGES],
    lng: 'en',
    fallbackLng: false,
    ns: [NAMESPACE],
    defaultNS: NAMESPACE,
    // Keys are English sentences: their dots and colons are text, not paths.
    keySeparator: false,
    nsSeparator: false,
    // Values go in by `interpolate` (one pass: a value's own braces stay text); answers are JSON, never HTML.
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    initAsync: false,
    // No advertisement on the server's console.
    showSupportNotice: false,
  });
  const lookups = new Map(LANGUAGES.map((l) => [l, instance.getFixedT(l, NAMESPACE)]));
  /** The language's text of an English one (i18next looks it up; the values go in by `interpolate`, in one pass). */
  const lookup = (english: string, language: Language): string | null =>
    merged[language]?.[english] === undefined
      ? null
      : (lookups.get(language) as (key: string, options: object) => string)(english, { skipInterpolation: true });
  const t = (message: Message, language: Language): string => {
    if (language === 'en') return String(message);
    if (!(message instanceof Text)) return lookup(message, language) ?? message;
    // Values that are messages themselves go in translated; the rest as they are.
    const params: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(message.params)) params[name] = value instanceof Text ? t(value, language) : value;
    return interpolate(lookup(message.template, language) ?? message.template, params);
  };
  return {
    t,
    has: (english, language) => language === 'en' || merged[language]?.[english] !== undefined,
  };
}
