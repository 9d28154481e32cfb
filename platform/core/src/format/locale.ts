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
