import { describe, expect, it } from 'vitest';
import { aBenefit, aContext } from '../testSupport';
import type { TermType } from '../types';
import { checkTermTypes } from './termTypes';

const using = (offered: TermType[] | null, ...types: TermType[]) =>
  aContext(
    types.map((TermType) => aBenefit({ TermType })),
    { TermTypes: offered },
  );

describe('checkTermTypes', () => {
  it('passes when every term type used is offered', () => {
    expect(checkTermTypes(using(['M', 'A'], 'M', 'A'))).toEqual({
      id: 'termTypes',
      pass: true,
      message: 'Annual, Monthly term(s) accepted',
      text: { key: 'termTypesAccepted', params: { types: { key: 'list', params: { list: { key: 'annual' }, next: { key: 'monthly' } } } } },
      ruleValue: { kind: 'termTypes', types: ['A', 'M'] },
      quoteValue: { kind: 'termTypes', types: ['A', 'M'] },
    });
  });

  it("fails with '{type} term(s) not accepted' naming the type not offered", () => {
    expect(checkTermTypes(using(['A', 'M'], 'M', 'W'))).toMatchObject({ pass: false, message: 'Weekly term(s) not accepted' });
  });

  it('names every refused type, in code order', () => {
    expect(checkTermTypes(using(['A'], 'W', 'S', 'B', 'Q', 'M'))?.message).toBe('Semi-annual, Quarterly, Monthly, Biweekly, Weekly term(s) not accepted');
  });

  it('ignores lump sums, whose annual term type is forced', () => {
    const context = aContext([aBenefit({ AnnuityType: 'LS', TermType: 'A' }), aBenefit({ TermType: 'M' })], { TermTypes: ['M'] });
    expect(checkTermTypes(context)?.pass).toBe(true);
  });

  it('does not apply when the company offers all types or no benefit has a term type', () => {
    expect(checkTermTypes(using(null, 'W'))).toBeNull();
    expect(checkTermTypes(aContext([aBenefit({ TermType: null })], { TermTypes: ['A'] }))).toBeNull();
  });
});
