import { describe, expect, it } from 'vitest';
import { balanceShare } from './share';

describe('balanceShare: the gauge value', () => {
  it('is the balance as a rounded percentage of what was set aside', () => {
    expect(balanceShare(1011.25, 1000.25)).toBe(100);
    expect(balanceShare(500, 1000)).toBe(50);
    expect(balanceShare(399.4, 1000)).toBe(40);
    expect(balanceShare(0.04, 1000)).toBe(0);
  });
  it('clamps to 0-100 and has no value without a set-aside', () => {
    expect(balanceShare(-50, 1000)).toBe(0);
    expect(balanceShare(2500, 1000)).toBe(100);
    expect(balanceShare(100, null)).toBeNull();
    expect(balanceShare(null, 1000)).toBeNull();
    expect(balanceShare(100, 0)).toBeNull();
  });
});
