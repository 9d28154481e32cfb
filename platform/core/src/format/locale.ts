/** The portal's languages: every i18n namespace ships one JSON file per language. */
export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Formatting locales: the portal serves US members, so Spanish is US Spanish (dollars, US conventions). */
export const LOCALES = { en: 'en-US', es: 'es-US' } as const satisfies Record<Language, string>;
export type Locale = (typeof LOCALES)[Language];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language of a BCP 47 tag ('es-MX' is 'es'); null when the portal does not speak it. */
export function languageOf(tag: string | null | undefined): Language | null {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : null;
}

export function localeOf(language: Language): Locale {
  return LOCALES[language];
}

// The web kernel sets this when the user switches language, so formatters called without a locale follow
// the UI; the server never sets it and formats en-US.
let current: Locale = LOCALES.en;

/** The locale formatters use when none is passed. */
export function formatLocale(): Locale {
  return current;
}

export function setFormatLocale(locale: Locale): void {
  current = locale;
}

/** The language for a browser: the stored choice, else Spanish when the browser prefers Spanish, else English. */
export function detectLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  return languageOf(browserLanguages[0]) === 'es' ? 'es' : 'en';
}

/**
 * The cookie that repeats the language a user chose in this browser (beside localStorage), so the server can send
 * the sign-in page prerendered in that language. Not a secret and not a session: a language code only.
 */
export const LANGUAGE_COOKIE = 'cq.lang';

/** The languages of an Accept-Language header, most preferred first (by q, then by order); `*` and q=0 left out. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((l) => l.tag !== '' && l.tag !== '*' && l.q > 0 && Number.isFinite(l.q))
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}
