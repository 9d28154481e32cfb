import { describe, expect, it } from 'vitest';
import { findBadText, parseId } from './input';

describe('kernel input rules', () => {
  it('finds NUL and lone surrogates anywhere in a body, naming the path', () => {
    expect(findBadText({ a: 'fine', b: ['ok', { c: `x${String.fromCharCode(0)}y` }] })).toBe('b.1.c');
    expect(findBadText({ Reason: 'half \uD83D pair' })).toBe('Reason');
    expect(findBadText('\uDE00 alone')).toBe('');
    expect(findBadText({ [`k${String.fromCharCode(0)}`]: 1 })).toBe('?');
  });
  it('lets ordinary text, emoji (whole pairs), numbers and nulls through', () => {
    expect(findBadText({ name: 'José 😀', n: 1, none: null, list: [true, 'a'] })).toBeNull();
    expect(findBadText(undefined)).toBeNull();
  });
  it('accepts ids written as decimal digits only', () => {
    expect(parseId('13')).toBe(13);
    expect(parseId('2147483647')).toBe(2147483647);
    for (const bad of ['0x0d', '1e1', '13.0', '-1', '0', '', ' 1', '01', '2147483648', 'true']) expect(parseId(bad)).toBeNull();
  });
});
