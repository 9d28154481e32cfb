import { COMPANY_CHECKS, MSA_ONLY_SKIPPED_GROUPS } from './checks/index';
import type { CheckResult } from './checks/types';
import { companyFee, type Fee } from './fee';
import { applyFieldRules, type DisabledFields } from './fieldRules';
import { type TermMessage, termMessages } from './termMessages';
import type { Benefit, Case, Company, Quote } from './types';

export interface CompanyOutcome {
  companyId: string;
  name: string;
  /** Every applicable check passes: a failed one or one not checked (data missing) makes it false. */
  pass: boolean;
  checks: CheckResult[];
  fee: Fee;
}

export interface BenefitOutcome {
  index: number;
  /** The benefit after the field rules, as the form should show it. */
  benefit: Benefit;
  messages: TermMessage[];
  disabled: DisabledFields;
}

export interface QuoteOutcome {
  companies: CompanyOutcome[];
  benefits: BenefitOutcome[];
}

/**
 * Whether a benefit concerns a company: placed with it (CompanyId) or quoted with it (LifeCompanies). A benefit
 * with neither is not yet tied to any company, so every company is checked against it.
 */
export function benefitConcerns(benefit: Benefit, companyId: string): boolean {
  if (benefit.CompanyId === null && benefit.LifeCompanies.length === 0) return true;
  return benefit.CompanyId === companyId || benefit.LifeCompanies.includes(companyId);
}

function companyOutcome(caseInput: Case, quote: Quote, company: Company, normalized: readonly Benefit[]): CompanyOutcome {
  const benefits = normalized.filter((benefit) => benefitConcerns(benefit, company.id));
  const context = { caseInput, quote, rules: company.rules, benefits };
  const msaOnly = quote.QuoteType === 'MSAOnly';
  const checks = COMPANY_CHECKS.filter((check) => !(msaOnly && MSA_ONLY_SKIPPED_GROUPS.includes(check.group)))
    .map((check) => check.run(context))
    .filter((result): result is CheckResult => result !== null);
  return {
    companyId: company.id,
    name: company.name,
    pass: checks.every((check) => check.pass === true),
    checks,
    fee: companyFee(company.rules, benefits),
  };
}

/**
 * Runs the whole rule set: the field rules and term messages for each benefit, then every company's checks and
 * fee against the benefits that concern it (after the field rules). Pure and deterministic: same input, same
 * outcome, on the server and in the browser.
 */
export function evaluateQuote(caseInput: Case, quote: Quote, companies: readonly Company[]): QuoteOutcome {
  const ruled = quote.Benefits.map(applyFieldRules);
  const normalized = ruled.map((result) => result.benefit);
  return {
    companies: companies.map((company) => companyOutcome(caseInput, quote, company, normalized)),
    benefits: ruled.map((result, index) => ({ index, benefit: result.benefit, messages: termMessages(result.benefit), disabled: result.disabled })),
  };
}

export * from './checks/index';
export { isMsaQuote, totalCost, totalPremium } from './checks/totalCost';
export { hasTerm, isLifeOnly, isLumpSum, isPeriodCertain, TERM_TYPE_NAMES } from './codes';
export { addToDate, type CalendarDate, compareDates, type DateUnit, formatIsoDate, formatUsDate, parseIsoDate, shiftDate } from './dates';
export { companyFee, type Fee } from './fee';
export { applyFieldRules, DISABLED_EXPLANATIONS, type DisableableField, type DisabledFields, type DisabledReason, type FieldRulesResult } from './fieldRules';
export { formatCents, toCents } from './money';
export { type Term, termOf } from './term';
export { TERM_MESSAGES, type TermMessage, termMessages } from './termMessages';
export { CHECK_TEXTS, type CheckText, type CheckTextKey, english, TERM_TYPE_TEXTS, textOf } from './texts';
export * from './types';
