import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import { checkMaxCola } from './maxCola';

const withCola = (COLA: number | null) => aContext([aBenefit({ COLA })], { MaxCOLAPercent: 3 });

describe('checkMaxCola', () => {
  it('must be less than the maximum: one hundredth below passes, equal and one hundredth above fail', () => {
    expect(checkMaxCola(withCola(2.99))).toEqual({
      id: 'maxCola',
      pass: true,
      message: 'COLA must be less than 3%',
      text: { key: 'maxCola', params: { percent: 3 } },
      ruleValue: { kind: 'percent', percent: 3 },
      quoteValue: { kind: 'percent', percent: 2.99 },
    });
    expect(checkMaxCola(withCola(3))?.pass).toBe(false);
    expect(checkMaxCola(withCola(3.01))?.pass).toBe(false);
  });

  it('compares hundredths of a percent, so float residue does not decide', () => {
    expect(checkMaxCola(aContext([aBenefit({ COLA: 0.1 + 0.2 })], { MaxCOLAPercent: 0.31 }))?.pass).toBe(true);
    expect(checkMaxCola(aContext([aBenefit({ COLA: 0.1 + 0.2 })], { MaxCOLAPercent: 0.3 }))?.pass).toBe(false);
  });

  it('at the boundary of 5%: 4.99 (and 4.996, more decimals than the API takes) pass, 5 and 5.00 fail', () => {
    const at5 = (COLA: number) => checkMaxCola(aContext([aBenefit({ COLA })], { MaxCOLAPercent: 5 }))?.pass;
    expect(at5(4.99)).toBe(true);
    expect(at5(4.996)).toBe(true);
    expect(at5(4.9999)).toBe(true);
    expect(at5(5)).toBe(false);
    expect(at5(5.0)).toBe(false);
    expect(at5(5.001)).toBe(false);
    expect(checkMaxCola(aContext([aBenefit({ COLA: 2.996 })], { MaxCOLAPercent: 3 }))?.pass).toBe(true);
  });

  it('judges the highest COLA and leaves lump sums out', () => {
    const context = aContext([aBenefit({ COLA: 1 }), aBenefit({ COLA: 2.5 }), aBenefit({ AnnuityType: 'LS', COLA: 9 })], { MaxCOLAPercent: 3 });
    expect(checkMaxCola(context)).toMatchObject({ pass: true, quoteValue: { kind: 'percent', percent: 2.5 } });
  });

  it('does not apply without the rule or without a COLA', () => {
    expect(checkMaxCola(aContext([aBenefit({ COLA: 2 })], {}))).toBeNull();
    expect(checkMaxCola(withCola(null))).toBeNull();
    expect(checkMaxCola(withCola(0))).toBeNull();
    expect(checkMaxCola(aContext([aBenefit({ AnnuityType: 'LL', COLA: 9 })], { MaxCOLAPercent: 3 }))).toBeNull();
  });
});
