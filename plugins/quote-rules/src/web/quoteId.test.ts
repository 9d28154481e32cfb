import { describe, expect, it } from 'vitest';
import { quoteIdOf } from './quoteId';

describe('the quote an address names', () => {
  it('is a new quote on /quotes and a saved one on /quotes/:id', () => {
    expect(quoteIdOf(undefined)).toBeNull();
    expect(quoteIdOf('12')).toBe(12);
  });

  it('is invalid for an id that is not a positive whole number, so the page says not found instead of loading for ever', () => {
    for (const param of ['abc', '', '0', '-3', '1.5', '1e3', '12abc', ' 12', '99999999999']) expect(quoteIdOf(param), param).toBe('invalid');
  });
});
