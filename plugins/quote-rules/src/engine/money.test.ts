import { describe, expect, it } from 'vitest';
import { finite, formatCents, MAX_CENTS, toCents } from './money';

describe('toCents', () => {
  it('turns wire dollars into whole cents without float residue', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1250.5)).toBe(125_050);
    expect(toCents(-5)).toBe(-500);
  });

  it('reads empty and non-finite amounts as empty', () => {
    expect([null, undefined, Number.NaN, Number.POSITIVE_INFINITY].map(toCents)).toEqual([null, null, null, null]);
  });

  it('caps amounts beyond the exact range, keeping their sign', () => {
    expect(toCents(1e300)).toBe(MAX_CENTS);
    expect(toCents(-1e300)).toBe(-MAX_CENTS);
  });
});

describe('finite', () => {
  it('keeps finite numbers and empties the rest', () => {
    expect([0, -2.5, null, Number.NaN, Number.NEGATIVE_INFINITY].map(finite)).toEqual([0, -2.5, null, null, null]);
  });
});

describe('formatCents', () => {
  it('writes dollars with grouping and two decimals', () => {
    expect(formatCents(123_456)).toBe('$1,234.56');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(-500)).toBe('-$5.00');
    expect(formatCents(100_000_000_000)).toBe('$1,000,000,000.00');
    expect(formatCents(MAX_CENTS)).toBe('$90,071,992,547,409.91');
  });
});
