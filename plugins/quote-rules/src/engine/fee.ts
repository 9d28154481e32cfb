import { totalPremium } from './checks/totalCost';
import { toCents } from './money';
import type { Benefit, CompanyRules } from './types';

/** A company's fee in cents (spec 02 section 9). */
export interface Fee {
  assignmentFee: number;
  smallCaseFee: number;
  total: number;
}

/**
 * The company's assignment fee, once however many benefits it takes, plus the small-case fee when the total
 * premium placed with it is below SmallCaseAmount. A company given no benefits is assigned nothing and
 * charges nothing. The small-case fee's amount is CompanyRules.SmallCaseFee (see there).
 */
export function companyFee(rules: CompanyRules, benefits: readonly Benefit[]): Fee {
  if (benefits.length === 0) return { assignmentFee: 0, smallCaseFee: 0, total: 0 };
  const assignmentFee = toCents(rules.AssignmentFee) ?? 0;
  const smallCaseAmount = toCents(rules.SmallCaseAmount);
  const premium = totalPremium(benefits) ?? 0;
  const smallCaseFee = smallCaseAmount !== null && premium < smallCaseAmount ? (toCents(rules.SmallCaseFee) ?? 0) : 0;
  return { assignmentFee, smallCaseFee, total: assignmentFee + smallCaseFee };
}
