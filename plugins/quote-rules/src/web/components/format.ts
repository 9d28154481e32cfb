import { formatCents, languageOf, localeOf } from '@portal/core';
import { type CheckText, type CheckValue, formatUsDate, parseIsoDate } from '../../engine/index';

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * A check's rule or quote value, in the page's language (`lng`, i18next's: 'en', 'es'). Money as US dollars in the
 * language's US locale ($1,234.56 in both), dates MM/DD/YYYY as the check's own text writes them.
 */
export function formatCheckValue(value: CheckValue, t: T, lng: string): string {
  switch (value.kind) {
    case 'flag':
      return value.value ? t('value.yes') : t('value.no');
    case 'age':
      return t('value.age', { count: value.years });
    case 'date': {
      const date = parseIsoDate(value.date);
      return date ? formatUsDate(date) : value.date;
    }
    case 'money':
      return money(value.cents, lng);
    case 'count':
      return String(value.count);
    case 'years':
      return t('value.years', { count: value.years });
    case 'term':
      return t('value.term', { years: value.term.years, months: value.term.months, weeks: value.term.weeks });
    case 'termTypes':
      return value.types.map((type) => t(`termType.${type}`)).join(', ');
    case 'percent':
      return `${value.percent}%`;
    case 'words':
      return checkWords(value.text, t);
    case 'missing':
      return t('value.missing');
  }
}

/** Cents as US dollars in the US locale of the page's language (`lng`, i18next's): '$1,234.56' in English and Spanish. */
export const money = (cents: number, lng: string) => formatCents(cents, localeOf(languageOf(lng) ?? 'en'));

/** A check's rule in the page's language, from its words (values that are words said first). */
export function checkWords(words: CheckText, t: T): string {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(words.params ?? {})) params[name] = typeof value === 'object' ? checkWords(value, t) : value;
  return t(`checkText.${words.key}`, params);
}
