import { describe, expect, it } from 'vitest';
import { compare, pairOrder } from './ab-stats';

describe('A/B comparison of two builds', () => {
  it('alternates which build loads first, ABBA, so each build goes first equally often', () => {
    const orders = Array.from({ length: 8 }, (_, i) => pairOrder(i).join(''));
    expect(orders).toEqual(['AB', 'BA', 'BA', 'AB', 'AB', 'BA', 'BA', 'AB']);
  });

  it('finds a clear difference when one build is slower by far more than the spread', () => {
    const a = Array.from({ length: 30 }, (_, i) => 1000 + ((i * 37) % 60));
    const b = a.map((x) => x + 200);
    const c = compare(a, b);
    expect(c.difference).toBe(200);
    expect(c.low).toBeGreaterThan(100);
    expect(c.clear).toBe(true);
  });

  it('calls two samples of the same spread no clear difference, with an interval around zero', () => {
    const a = Array.from({ length: 30 }, (_, i) => 1000 + ((i * 37) % 300));
    const b = Array.from({ length: 30 }, (_, i) => 1000 + ((i * 53) % 300));
    const c = compare(a, b);
    expect(c.low).toBeLessThan(0);
    expect(c.high).toBeGreaterThan(0);
    expect(c.clear).toBe(false);
  });

  it('gives the same interval for the same samples, and ignores failed loads (NaN)', () => {
    const a = [1, 5, 3, Number.NaN, 9, 4];
    const b = [2, 8, 6, 7, Number.NaN, 5];
    expect(compare(a, b)).toEqual(compare(a, b));
    expect(compare(a, b).a.n).toBe(5);
    expect(() => compare([Number.NaN], [1])).toThrow(/samples of both/);
  });
});
