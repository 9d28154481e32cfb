import { acceptedLanguages, cookieValue, detectLanguage, LANGUAGE_COOKIE, LANGUAGES, type Language } from './format/locale';

/**
 * Pages every brand's build prerenders into its HTML, one file per language (apps/web/build.ts), and the sites
 * server sends for these paths (platform/server/src/http/sites.ts): the sign-in page, which shows no member data, so
 * its first paint needs no script. The browser then hydrates that markup (platform/web/src/shell/prerendered.ts).
 */
export const PRERENDERED_PAGES: Readonly<Record<string, string>> = { '/login': 'sign-in', '/register': 'sign-in' };

/** Every prerendered page name (the values of PRERENDERED_PAGES, once each). */
export const prerenderedPageNames = (): string[] => [...new Set(Object.values(PRERENDERED_PAGES))];

/** Where a prerendered page lies in a brand's built site. */
export const prerenderedFile = (page: string, language: Language): string => `prerendered/${page}.${language}.html`;

/** The languages a page is prerendered in. */
export const PRERENDERED_LANGUAGES: readonly Language[] = LANGUAGES;

/**
 * The language a request's browser will start in, as the browser decides it (detectLanguage): the choice it
 * remembered (repeated in the LANGUAGE_COOKIE cookie), else its preferred language.
 */
export function requestLanguage(headers: { cookie?: string | string[]; 'accept-language'?: string | string[] }): Language {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join('; ') : v);
  return detectLanguage(cookieValue(one(headers.cookie), LANGUAGE_COOKIE), acceptedLanguages(one(headers['accept-language'])));
}
