import { formatLocale, type Locale } from './locale';

/** A file's size in the unit that reads best (the unit's word is the caller's to translate): bytes, whole KB, or MB with one decimal (the number in the page's locale). */
export function fileSize(bytes: number, locale: Locale = formatLocale()): { unit: 'B' | 'KB' | 'MB'; value: string } {
  const number = (n: number, decimals: number) => new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n);
  if (bytes < 1024) return { unit: 'B', value: number(bytes, 0) };
  if (bytes < 1024 * 1024) return { unit: 'KB', value: number(Math.round(bytes / 1024), 0) };
  return { unit: 'MB', value: number(bytes / 1024 / 1024, 1) };
}
