import type { Term } from '../term';
import type { CheckText } from '../texts';
import type { Benefit, Case, CompanyRules, Quote, TermType } from '../types';

export type CheckId =
  | 'nonQualCases'
  | 'maxAge'
  | 'minDeferral'
  | 'minLumpSumDeferral'
  | 'maxLumpSumDeferral'
  | 'maxDeferral'
  | 'minPayment'
  | 'maxLumpSumAmount'
  | 'minPremium'
  | 'maxPremium'
  | 'minLumpSumCount'
  | 'maxGuarantee'
  | 'minTerm'
  | 'maxTerm'
  | 'termTypes'
  | 'maxCola';

/** A value for the explain view, typed so each side formats it in its own language (money in cents, dates ISO). */
export type CheckValue =
  | { kind: 'flag'; value: boolean }
  | { kind: 'age'; years: number }
  | { kind: 'date'; date: string }
  | { kind: 'money'; cents: number }
  | { kind: 'count'; count: number }
  | { kind: 'years'; years: number }
  | { kind: 'term'; term: Term }
  | { kind: 'termTypes'; types: TermType[] }
  | { kind: 'percent'; percent: number }
  /** A rule in words ('30 days'), for a check not made. */
  | { kind: 'words'; text: CheckText }
  /** The quote lacks the data the check needs. */
  | { kind: 'missing' };

/**
 * One line of a company's tooltip: pass or fail, the message stating the rule either way; or not checked (pass null),
 * when the company sets the rule but the quote lacks the data it needs, the message saying what is missing.
 */
export interface CheckResult {
  id: CheckId;
  pass: boolean | null;
  /** The rule in the spec's English words (the server's answers carry it in the user's language). */
  message: string;
  /** The same words as a key and values, for saying them in another language (see texts.ts). */
  text: CheckText;
  ruleValue: CheckValue;
  quoteValue: CheckValue;
}

export interface CheckContext {
  caseInput: Case;
  quote: Quote;
  rules: CompanyRules;
  /** The quote's benefits that concern this company, after the field rules. */
  benefits: readonly Benefit[];
}

/** Null when the check does not apply: the company sets no limit, or the quote has nothing the rule concerns. */
export type CompanyCheck = (context: CheckContext) => CheckResult | null;
