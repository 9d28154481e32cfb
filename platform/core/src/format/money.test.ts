import { describe, expect, it } from 'vitest';
import { formatLocale, localeOf, setFormatLocale } from './locale';
import { formatCents, formatCurrency, formatMoney, moneyFromText, moneyInput, moneyOnBlur, parseMoney, roundMoney } from './money';
import { capNumber } from './numberCap';
import { RUNS, randomInt, randomString, rng } from './testRandom';

describe('money', () => {
  it('parses a decimal comma and grouping', () => {
    expect(parseMoney('12,5')).toBe(12.5);
    expect(parseMoney('12,50')).toBe(12.5);
    expect(parseMoney('1,000')).toBe(1000);
    expect(parseMoney('$1,000.25')).toBe(1000.25);
    expect(parseMoney('-3.1')).toBe(-3.1);
    expect(parseMoney('abc')).toBeNull();
    expect(parseMoney('')).toBeNull();
    expect(parseMoney('1.2.3')).toBeNull();
  });

  it('reads the last of two marks as the decimal one and the other as thousands groups, so 1.500,00 is 1500, not 1.5', () => {
    expect(parseMoney('1.500,00')).toBe(1500);
    expect(parseMoney('2.000,00')).toBe(2000);
    expect(parseMoney('1.234.567,89')).toBe(1234567.89);
    expect(parseMoney('$1,234,567.89')).toBe(1234567.89);
    expect(parseMoney('-1.250,5')).toBe(-1250.5);
    expect(parseMoney('12,345')).toBe(12345);
  });

  it('refuses badly grouped digits instead of misreading them', () => {
    for (const text of ['1.5,00', '12,345,6', '1,23,456', '1,2345.00', '12.34,5.6', ',123', '1,000,00.5', '1.000.000']) {
      expect(parseMoney(text), text).toBeNull();
    }
  });

  it('gives a contract the number of money text, and leaves text that is not money for the schema to refuse', () => {
    expect(moneyFromText('$1,000.25')).toBe(1000.25);
    expect(moneyFromText('12,5')).toBe(12.5);
    expect(moneyFromText('0x10')).toBe('0x10');
    expect(moneyFromText('1e2')).toBe('1e2');
    expect(moneyFromText(7)).toBe(7);
    expect(moneyFromText('  ')).toBe('  ');
    expect(moneyFromText(null)).toBeNull();
  });

  it('formats', () => {
    expect(formatMoney(12.5)).toBe('12.50');
    expect(formatMoney('12,5')).toBe('12.50');
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(null)).toBe('');
    expect(formatCurrency(1000)).toBe('$1,000.00');
    expect(formatCurrency(1234567.891)).toBe('$1,234,567.89');
    expect(formatCurrency(-5)).toBe('-$5.00');
    expect(formatCurrency(0)).toBe('$0.00');
    expect(roundMoney(-1.005)).toBe(-1.01);
    expect(formatCurrency(-0.001)).toBe('$0.00');
    expect(formatCurrency(1.005)).toBe('$1.01');
  });

  it('formats dollars for US Spanish as US members read them, from a locale or the current one', () => {
    const es = localeOf('es');
    expect(es).toBe('es-US');
    expect(formatCurrency(1234567.891, es)).toBe('$1,234,567.89');
    expect(formatCurrency(-5, es)).toBe('-$5.00');
    expect(formatCurrency('12,5', es)).toBe('$12.50');
    expect(formatCents(123456, es)).toBe('$1,234.56');
    expect(formatCents(-1, es)).toBe('-$0.01');
    expect(formatCents(null, es)).toBe('');
    expect(formatCurrency(1000, 'es-US')).toBe(formatCurrency(1000, 'en-US'));
    const before = formatLocale();
    try {
      setFormatLocale(es);
      expect(formatCurrency(2.5)).toBe('$2.50');
      expect(formatCents(250)).toBe('$2.50');
    } finally {
      setFormatLocale(before);
    }
  });

  it('round-trips cents and typing never yields more than one dot or two decimals', () => {
    const next = rng(5);
    for (let i = 0; i < RUNS; i++) {
      const cents = randomInt(next, -10_000_000, 10_000_000);
      const value = cents / 100;
      expect(parseMoney(formatMoney(value))).toBe(value);
      expect(parseMoney(formatCurrency(value))).toBe(value);
      expect(parseMoney(formatCurrency(value, 'es-US'))).toBe(value);
      expect(formatCents(cents, 'es-US')).toBe(formatCurrency(value, 'es-US'));
      expect(formatMoney(value)).toMatch(/^-?\d+\.\d{2}$/);
      // Only digits and the marks; after a last '.', one decimal point and at most two decimals; after a last ',', three digits at most.
      expect(moneyInput(randomString(next))).toMatch(/^[\d.,]*?(\.\d{0,2}|,\d{0,3}|\d*)$/);
      const typed = moneyInput(randomString(next));
      const afterPoint = typed.slice(typed.lastIndexOf(',') + 1);
      expect(afterPoint.split('.').length, typed).toBeLessThanOrEqual(2);
    }
  });
});

describe('a money field while typing and on leaving it', () => {
  it('keeps a grouped amount as typed or pasted (before, 1,234.56 became 1.23), and writes it plainly on blur', () => {
    for (const [typed, blurred] of [
      ['1,234.56', '1234.56'],
      ['1,000', '1000.00'],
      ['2,500.00', '2500.00'],
      ['1.500,00', '1500.00'],
      ['12,5', '12.50'],
      ['$ 125.40', '125.40'],
    ] as const) {
      expect(moneyInput(typed), typed).toBe(typed.replace(/[$ ]/g, ''));
      expect(moneyOnBlur(moneyInput(typed)), typed).toBe(blurred);
    }
  });

  it('takes one decimal point with two decimals at most', () => {
    expect(moneyInput('12.345')).toBe('12.34');
    expect(moneyInput('1.2.3')).toBe('1.23');
    expect(moneyInput('12,3456')).toBe('12,345');
    expect(moneyInput('abc')).toBe('');
  });

  it('leaves text that is not money as typed on blur, for the check to name, instead of clearing it', () => {
    expect(moneyOnBlur('1.5,00')).toBe('1.5,00');
    expect(moneyOnBlur('')).toBe('');
  });
});

describe('capNumber', () => {
  it('resets above the bound to the bound', () => {
    expect(capNumber(150, 100)).toBe(100);
    expect(capNumber(50, 100)).toBe(50);
    expect(capNumber(-5, 100, 0)).toBe(0);
    const next = rng(6);
    for (let i = 0; i < RUNS; i++) {
      const max = randomInt(next, -1000, 1000);
      const v = randomInt(next, -5000, 5000);
      expect(capNumber(v, max)).toBe(Math.min(v, max));
    }
  });
});
