import type { CheckContext } from './checks/types';
import type { Benefit, Case, CompanyRules, Quote } from './types';

/** Test data builders: a valid period-certain benefit, a case bought 2024-01-31, rules that limit nothing. */

export function aBenefit(overrides: Partial<Benefit> = {}): Benefit {
  return {
    AnnuityType: 'PC',
    TermType: 'M',
    TermYears: 10,
    TermMonths: null,
    TermWeeks: null,
    COLA: null,
    StartDate: '2024-03-01',
    PremiumAmount: 100_000,
    PaymentAmount: 1_000,
    LifeCompanies: [],
    CompanyId: null,
    ...overrides,
  };
}

export function aCase(overrides: Partial<Case> = {}): Case {
  return { Annuitants: [{ Age: 50 }], IsQualified: false, PurchaseDate: '2024-01-31', ...overrides };
}

export function aQuote(benefits: Benefit[], overrides: Partial<Quote> = {}): Quote {
  return { QuoteType: 'Standard', Benefits: benefits, FeeAmount: null, ...overrides };
}

export function someRules(overrides: Partial<CompanyRules> = {}): CompanyRules {
  return {
    NonQualCases: true,
    MaxAge: null,
    MinDeferral: null,
    MaxDeferral: null,
    MinLumpSumDeferral: null,
    MaxLumpSumDeferral: null,
    MinPaymentAmount: null,
    MaxLumpSumAmount: null,
    MinPremiumAmount: null,
    MaxPremiumAmount: null,
    MinLumpSumCount: null,
    MaxGuarantee: null,
    MinTerm: null,
    MaxTerm: null,
    TermTypes: null,
    MaxCOLAPercent: null,
    AssignmentFee: null,
    SmallCaseAmount: null,
    ...overrides,
  };
}

/** A check context; the quote holds the given benefits, all of which concern the company. */
export function aContext(benefits: Benefit[], rules: Partial<CompanyRules>, options: { caseInput?: Partial<Case>; quote?: Partial<Quote> } = {}): CheckContext {
  return { caseInput: aCase(options.caseInput), quote: aQuote(benefits, options.quote), rules: someRules(rules), benefits };
}
