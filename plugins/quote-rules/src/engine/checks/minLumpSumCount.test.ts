import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMinLumpSumCount } from './minLumpSumCount';

const lumpSums = (count: number, MinLumpSumCount: number | null = 2) =>
  aContext([aBenefit(), ...Array.from({ length: count }, () => aBenefit({ AnnuityType: 'LS' }))], { MinLumpSumCount });

describe('checkMinLumpSumCount', () => {
  it('passes with N lump sums and one more, fails with one fewer', () => {
    expect(checkMinLumpSumCount(lumpSums(2))).toEqual({
      id: 'minLumpSumCount',
      pass: true,
      message: 'At least 2 lump sums required',
      text: { key: 'minLumpSumCount', params: { number: 2 } },
      ruleValue: { kind: 'count', count: 2 },
      quoteValue: { kind: 'count', count: 2 },
    });
    expect(checkMinLumpSumCount(lumpSums(3))?.pass).toBe(true);
    expect(checkMinLumpSumCount(lumpSums(1))?.pass).toBe(false);
  });

  it('counts LS and LL alike', () => {
    const context = aContext([aBenefit({ AnnuityType: 'LS' }), aBenefit({ AnnuityType: 'LL' })], { MinLumpSumCount: 2 });
    expect(checkMinLumpSumCount(context)?.pass).toBe(true);
  });

  it('applies only when there are lump sums and N is above 1', () => {
    expect(checkMinLumpSumCount(lumpSums(0))).toBeNull();
    expect(checkMinLumpSumCount(lumpSums(1, 1))).toBeNull();
    expect(checkMinLumpSumCount(lumpSums(1, null))).toBeNull();
  });
});
