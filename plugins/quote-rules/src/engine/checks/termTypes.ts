import { isLumpSum, TERM_TYPE_NAMES } from '../codes';
import { TERM_TYPES, type TermType } from '../types';
import type { CheckContext, CheckResult } from './types';

function names(types: readonly TermType[]): string {
  return types.map((type) => TERM_TYPE_NAMES[type]).join(', ');
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
  return {
    id: 'termTypes',
    pass: refused.length === 0,
    message: refused.length === 0 ? `${names(accepted)} term(s) accepted` : `${names(refused)} term(s) not accepted`,
    ruleValue: { kind: 'termTypes', types: accepted },
    quoteValue: { kind: 'termTypes', types: used },
  };
}
