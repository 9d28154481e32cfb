import { formatCents, formatLocale, type Locale } from '@portal/core';
import { type MembershipKey, PRICES_CENTS } from '../contract';

const wholeDollars = new Map<Locale, Intl.NumberFormat>();

/**
 * A plan's price as the spec writes it (spec 01 section 3): whole dollars with grouping when the price is whole
 * ('$12', '$1,000'), cents otherwise ('$12.50'). The current UI locale when none is given.
 */
export function formatPlanPrice(cents: number, locale: Locale = formatLocale()): string {
  if (!Number.isInteger(cents) || cents % 100 !== 0) return formatCents(cents, locale);
  let format = wholeDollars.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });
    wholeDollars.set(locale, format);
  }
  return format.format(cents / 100);
}

/** What planLabel needs of i18next's `t`: a key and the price to put in it. */
export type PlanLabelT = (key: string, options: { price: string }) => string;

/**
 * The label of a membership type with its price (spec 01 section 3): '1 month, $12/month', '1 year, $125/annually',
 * 'Lifetime, $1,000'. The wording is the catalogue's `<prefix>.<key>` with `{{price}}` (billing: `prices`, the
 * registration wizard: `subscription.prices`); the amount is PRICES_CENTS in the UI locale.
 */
export function planLabel(t: PlanLabelT, key: MembershipKey, prefix = 'prices'): string {
  return t(`${prefix}.${key}`, { price: formatPlanPrice(PRICES_CENTS[key]) });
}
