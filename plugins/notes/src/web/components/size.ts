import { formatLocale, type Locale } from '@portal/core';

/**
 * An attachment's size for its button: bytes, whole KB, or MB with one decimal, the number written in the page's
 * locale (the UI's, when none is given): '1.5 MB', '1,234.5 MB' (es-US writes numbers as en-US does).
 */
export function attachmentSize(bytes: number, locale: Locale = formatLocale()): string {
  const number = (n: number, decimals: number) => new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n);
  if (bytes < 1024) return `${number(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${number(Math.round(bytes / 1024), 0)} KB`;
  return `${number(bytes / 1024 / 1024, 1)} MB`;
}
