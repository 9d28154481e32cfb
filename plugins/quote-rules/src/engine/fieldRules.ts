import { isLifeOnly, isLumpSum } from './codes';
import type { Benefit } from './types';

export type DisableableField = 'COLA' | 'TermType' | 'TermYears' | 'TermMonths' | 'TermWeeks';

/**
 * Why a field is disabled, as a key the web side translates (spec 02 section 4):
 * lumpSumNoCola: a lump sum has no COLA; lumpSumAnnualOneYear: a lump sum is annual for 1 year;
 * lumpSumNoMonthsWeeks: a lump sum has no months or weeks; lifeOnlyNoTerm: life only has no term.
 */
export type DisabledReason = 'lumpSumNoCola' | 'lumpSumAnnualOneYear' | 'lumpSumNoMonthsWeeks' | 'lifeOnlyNoTerm';

export type DisabledFields = Partial<Record<DisableableField, DisabledReason>>;

export interface FieldRulesResult {
  benefit: Benefit;
  disabled: DisabledFields;
}

/** English wording of each reason, for callers without translations. */
export const DISABLED_EXPLANATIONS: Readonly<Record<DisabledReason, string>> = {
  lumpSumNoCola: 'A lump sum has no COLA',
  lumpSumAnnualOneYear: 'A lump sum is paid annually for 1 year',
  lumpSumNoMonthsWeeks: 'A lump sum has no months or weeks',
  lifeOnlyNoTerm: 'Life only has no term',
};

/**
 * Applies the field rules to one benefit. Lump sum: COLA cleared, term type forced to A with 1 year, months
 * and weeks cleared, all of them disabled (forced values too, or typing would fight the rule). Life only:
 * years, months and weeks cleared and disabled. Other types pass through unchanged.
 */
export function applyFieldRules(benefit: Benefit): FieldRulesResult {
  if (isLumpSum(benefit.AnnuityType)) {
    return {
      benefit: { ...benefit, COLA: null, TermType: 'A', TermYears: 1, TermMonths: null, TermWeeks: null },
      disabled: {
        COLA: 'lumpSumNoCola',
        TermType: 'lumpSumAnnualOneYear',
        TermYears: 'lumpSumAnnualOneYear',
        TermMonths: 'lumpSumNoMonthsWeeks',
        TermWeeks: 'lumpSumNoMonthsWeeks',
      },
    };
  }
  if (isLifeOnly(benefit.AnnuityType)) {
    return {
      benefit: { ...benefit, TermYears: null, TermMonths: null, TermWeeks: null },
      disabled: { TermYears: 'lifeOnlyNoTerm', TermMonths: 'lifeOnlyNoTerm', TermWeeks: 'lifeOnlyNoTerm' },
    };
  }
  return { benefit, disabled: {} };
}
