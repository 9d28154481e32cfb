import { formatLocale, type Locale } from './locale';

/**
 * Parses money typed by a user. A lone comma followed by one or two digits is a decimal comma ('12,5' is 12.5, spec 02
 * section 5). When both marks are used, the last one is the decimal mark and the other groups thousands, in groups of
 * three: '1,234.56' and '1.234,56' are both 1234.56. A comma followed by three digits groups thousands ('1,000' is
 * 1000). Anything else, such as badly grouped digits ('1.5,00', '12,345,6'), is not money: null, never a misreading
 * (before, '1.500,00' read as 1.5). Returns null for anything that is not a finite number.
 */
export function parseMoney(input: string | number | null | undefined): number | null {
  if (typeof input === 'number') return Number.isFinite(input) ? input : null;
  const text = (input ?? '').trim().replace(/[$\s]/g, '');
  if (text === '') return null;
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const plain = plainMoney(body);
  if (plain === null || !/^(\d+\.?\d*|\.\d+)$/.test(plain)) return null;
  const value = Number(`${negative ? '-' : ''}${plain}`);
  return Number.isFinite(value) ? value : null;
}

/** The digits with '.' as the only (decimal) mark, or null when the marks are not used as parseMoney reads them. */
function plainMoney(body: string): string | null {
  const lastDot = body.lastIndexOf('.');
  const lastComma = body.lastIndexOf(',');
  if (lastComma < 0) return body;
  if (lastDot < 0) {
    if (/^\d*,\d{1,2}$/.test(body)) return body.replace(',', '.');
    return /^\d{1,3}(,\d{3})+$/.test(body) ? body.replace(/,/g, '') : null;
  }
  const [group, decimal] = lastDot > lastComma ? [',', '.'] : ['.', ','];
  const mark = body.lastIndexOf(decimal);
  const whole = body.slice(0, mark);
  const grouped = group === ',' ? /^\d{1,3}(,\d{3})+$/ : /^\d{1,3}(\.\d{3})+$/;
  if (!grouped.test(whole)) return null;
  return `${whole.split(group).join('')}.${body.slice(mark + 1)}`;
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

/**
 * Sanitises money while typing: digits and the two marks only. A '.' that is the last mark is the decimal point: a
 * later '.' is dropped and at most two decimals follow it; after a last ',' (a decimal comma or a thousands group) at
 * most three digits follow. Grouped text such as '1,234.56' or '1.234,56' stays as typed for parseMoney to read (before,
 * '1,234.56' became '1.23'); `moneyOnBlur` then writes the amount plainly.
 */
export function moneyInput(input: string | null | undefined): string {
  let text = (input ?? '').replace(/[^\d.,]/g, '');
  const lastComma = text.lastIndexOf(',');
  const firstDotAfter = text.indexOf('.', lastComma + 1);
  if (firstDotAfter >= 0) {
    const head = text.slice(0, firstDotAfter);
    text = `${head}.${text
      .slice(firstDotAfter + 1)
      .replace(/\./g, '')
      .slice(0, 2)}`;
  } else if (lastComma >= 0) {
    text = text.slice(0, lastComma + 1 + 3);
  }
  return text;
}

/** A money field's text once the user leaves it: the amount with two decimals, or the text as typed when it is not money (the form's check then says so). */
export const moneyOnBlur = (text: string): string => formatMoney(text) || text;

/**
 * Whether dollars are a whole number of cents: the number is the one its 2-decimal text reads back as (99.99 is;
 * 99.995 is not). Exact at any size, where a tolerance on n * 100 misreads large amounts.
 */
export const isWholeCents = (n: number): boolean => Number(n.toFixed(2)) === n;
