import { isLumpSum } from '../codes';
import { type CheckText, checkText, english, listOf, TERM_TYPE_TEXTS } from '../texts';
import { TERM_TYPES, type TermType } from '../types';
import type { CheckContext, CheckResult } from './types';

function names(types: readonly TermType[]): CheckText | string {
  return listOf(types.map((type) => checkText(TERM_TYPE_TEXTS[type])));
}

/**
 * Term types not offered: '{type} term(s) not accepted', {type} being the names of the refused types.
 * Lump sums are left out: their term type is forced to annual, not chosen.
 */
export function checkTermTypes({ benefits, rules }: CheckContext): CheckResult | null {
  const offered = rules.TermTypes;
  const used = TERM_TYPES.filter((type) => benefits.some((benefit) => !isLumpSum(benefit.AnnuityType) && benefit.TermType === type));
  if (offered === null || used.length === 0) return null;
  const refused = used.filter((type) => !offered.includes(type));
  const accepted = TERM_TYPES.filter((type) => offered.includes(type));
  const words = refused.length === 0 ? checkText('termTypesAccepted', { types: names(accepted) }) : checkText('termTypesRefused', { types: names(refused) });
  return {
    id: 'termTypes',
    pass: refused.length === 0,
    message: english(words),
    text: words,
    ruleValue: { kind: 'termTypes', types: accepted },
    quoteValue: { kind: 'termTypes', types: used },
  };
}
