import { describe, expect, it } from 'vitest';
import { searchAmount } from './support-queries';

describe("searchAmount: support's search text that reads as an amount", () => {
  it('reads dollars typed as money, with or without $, grouping or a decimal comma', () => {
    expect(searchAmount('12.50')).toEqual({ cents: 1250, marked: true });
    expect(searchAmount('$12.50')).toEqual({ cents: 1250, marked: true });
    expect(searchAmount('$ 12.5')).toEqual({ cents: 1250, marked: true });
    expect(searchAmount('12,50')).toEqual({ cents: 1250, marked: true });
    expect(searchAmount('1,200')).toEqual({ cents: 120000, marked: true });
    expect(searchAmount('$1,200.00')).toEqual({ cents: 120000, marked: true });
  });

  it('reads plain digits as an amount that may also be an id (not marked)', () => {
    expect(searchAmount('1200')).toEqual({ cents: 120000, marked: false });
  });

  it('is null for text that is not money', () => {
    for (const text of ['PA-77', 'paid', '12.345', '1.5,00', '$', '12 50', '-5', '1e3', '']) expect(searchAmount(text), text).toBeNull();
  });
});
