import { checkMaxAge } from './maxAge';
import { checkMaxCola } from './maxCola';
import { checkMaxDeferral } from './maxDeferral';
import { checkMaxGuarantee } from './maxGuarantee';
import { checkMaxLumpSumAmount } from './maxLumpSumAmount';
import { checkMaxLumpSumDeferral } from './maxLumpSumDeferral';
import { checkMaxPremium } from './maxPremium';
import { checkMaxTerm } from './maxTerm';
import { checkMinDeferral } from './minDeferral';
import { checkMinLumpSumCount } from './minLumpSumCount';
import { checkMinLumpSumDeferral } from './minLumpSumDeferral';
import { checkMinPayment } from './minPayment';
import { checkMinPremium } from './minPremium';
import { checkMinTerm } from './minTerm';
import { checkNonQualCases } from './nonQualCases';
import { checkTermTypes } from './termTypes';
import type { CheckId, CompanyCheck } from './types';

/** What a check is about; MSA-only quotes skip the deferral, term, annuity-type and COLA groups. */
export type CheckGroup = 'case' | 'deferral' | 'amount' | 'annuityType' | 'term' | 'cola';

export interface CompanyCheckEntry {
  id: CheckId;
  group: CheckGroup;
  run: CompanyCheck;
}

/**
 * Every company rule check of spec 02 section 5, in the spec's order. 'annuityType' holds the checks that
 * only concern lump sums (their count and their maximum payment); the term-type and guarantee checks are
 * about the term.
 */
export const COMPANY_CHECKS: readonly CompanyCheckEntry[] = [
  { id: 'nonQualCases', group: 'case', run: checkNonQualCases },
  { id: 'maxAge', group: 'case', run: checkMaxAge },
  { id: 'minDeferral', group: 'deferral', run: checkMinDeferral },
  { id: 'minLumpSumDeferral', group: 'deferral', run: checkMinLumpSumDeferral },
  { id: 'maxLumpSumDeferral', group: 'deferral', run: checkMaxLumpSumDeferral },
  { id: 'maxDeferral', group: 'deferral', run: checkMaxDeferral },
  { id: 'minPayment', group: 'amount', run: checkMinPayment },
  { id: 'maxLumpSumAmount', group: 'annuityType', run: checkMaxLumpSumAmount },
  { id: 'minPremium', group: 'amount', run: checkMinPremium },
  { id: 'maxPremium', group: 'amount', run: checkMaxPremium },
  { id: 'minLumpSumCount', group: 'annuityType', run: checkMinLumpSumCount },
  { id: 'maxGuarantee', group: 'term', run: checkMaxGuarantee },
  { id: 'minTerm', group: 'term', run: checkMinTerm },
  { id: 'maxTerm', group: 'term', run: checkMaxTerm },
  { id: 'termTypes', group: 'term', run: checkTermTypes },
  { id: 'maxCola', group: 'cola', run: checkMaxCola },
];

export const MSA_ONLY_SKIPPED_GROUPS: readonly CheckGroup[] = ['deferral', 'term', 'annuityType', 'cola'];

export type { CheckContext, CheckId, CheckResult, CheckValue, CompanyCheck } from './types';
export {
  checkMaxAge,
  checkMaxCola,
  checkMaxDeferral,
  checkMaxGuarantee,
  checkMaxLumpSumAmount,
  checkMaxLumpSumDeferral,
  checkMaxPremium,
  checkMaxTerm,
  checkMinDeferral,
  checkMinLumpSumCount,
  checkMinLumpSumDeferral,
  checkMinPayment,
  checkMinPremium,
  checkMinTerm,
  checkNonQualCases,
  checkTermTypes,
};
