import { formatLocale, type Locale } from './locale';

/**
 * Parses money typed by a user. A lone comma followed by one or two digits is a decimal comma
 * ('12,5' is 12.5, spec 02 section 5); otherwise commas are thousands separators ('1,000.50').
 * Returns null for anything that is not a finite number.
 */
export function parseMoney(input: string | number | null | undefined): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  let text = (input ?? '').trim().replace(/[$\s]/g, '');
  if (text === '') return null;
  if (/^-?\d*,\d{1,2}$/.test(text)) text = text.replace(',', '.');
  else text = text.replace(/,/g, '');
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * A contract's preprocess for money sent as text: parseMoney's number, or the text unchanged when it is not money
 * ('0x10', '1e2', '12 dollars'), so the number schema after it refuses it. Numbers and other values pass as they are.
 */
export function moneyFromText(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  return parseMoney(value) ?? value;
}

/** Rounds half away from zero to cents, correcting binary float error (1.005 rounds to 1.01). */
export function roundMoney(value: number): number {
  const sign = value < 0 ? -1 : 1;
  return (sign * Math.round(Math.abs(value) * 100 + 1e-8)) / 100;
}

/** Two decimals, no grouping: formatMoney(12.5) is '12.50'. */
export function formatMoney(value: number | string | null | undefined): string {
  const n = parseMoney(value ?? null);
  return n === null ? '' : roundMoney(n).toFixed(2);
}

const currencyFormats = new Map<Locale, Intl.NumberFormat>();

/**
 * Dollar display with grouping in the locale's style (the current UI locale when none is given):
 * '$1,000.00', negatives '-$5.00'. US Spanish writes dollars the same way as US English.
 */
export function formatCurrency(value: number | string | null | undefined, locale: Locale = formatLocale()): string {
  const n = parseMoney(value ?? null);
  if (n === null) return '';
  let format = currencyFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    currencyFormats.set(locale, format);
  }
  // Rounded first: Intl rounds the binary value, so 1.005 would show as 1.00; `|| 0` turns -0 into 0.
  return format.format(roundMoney(n) || 0);
}

/** Money kept as integer cents, shown as dollars: formatCents(123456) is '$1,234.56'. */
export function formatCents(cents: number | null | undefined, locale: Locale = formatLocale()): string {
  return cents === null || cents === undefined || !Number.isFinite(cents) ? '' : formatCurrency(Math.round(cents) / 100, locale);
}

/** Sanitises money while typing: digits, one dot (a comma becomes the dot), at most two decimals. */
export function moneyInput(input: string | null | undefined): string {
  const text = (input ?? '').replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = text.indexOf('.');
  if (dot < 0) return text;
  return `${text.slice(0, dot)}.${text
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2)}`;
}

/**
 * Whether dollars are a whole number of cents: the number is the one its 2-decimal text reads back as (99.99 is;
 * 99.995 is not). Exact at any size, where a tolerance on n * 100 misreads large amounts.
 */
export const isWholeCents = (n: number): boolean => Number(n.toFixed(2)) === n;
