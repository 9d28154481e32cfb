import type { CheckText, CheckValue } from '../../engine/index';

type T = (key: string, options?: Record<string, unknown>) => string;

/** A check's rule or quote value, in the page's language. */
export function formatCheckValue(value: CheckValue, t: T, lng: string): string {
  switch (value.kind) {
    case 'flag':
      return value.value ? t('value.yes') : t('value.no');
    case 'age':
      return t('value.age', { count: value.years });
    case 'date':
      return value.date;
    case 'money':
      return new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD' }).format(value.cents / 100);
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
  }
}

export const money = (cents: number, lng: string) => new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD' }).format(cents / 100);

/** A check's rule in the page's language, from its words (values that are words said first). */
export function checkWords(words: CheckText, t: T): string {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(words.params ?? {})) params[name] = typeof value === 'object' ? checkWords(value, t) : value;
  return t(`checkText.${words.key}`, params);
}
