import { describe, expect, it } from 'vitest';
import { benefitConcerns, COMPANY_CHECKS, evaluateQuote } from './index';
import { aBenefit, aCase, aQuote, someRules } from './testSupport';
import type { Company, CompanyRules } from './types';

const company = (id: string, rules: Partial<CompanyRules>): Company => ({ id, name: `Company ${id}`, rules: someRules(rules) });

/** Rules that every check applies to, all satisfied by `workbench` below except where a test tightens one. */
const everyRule: Partial<CompanyRules> = {
  NonQualCases: false,
  MaxAge: 85,
  MinDeferral: 30,
  MaxDeferral: 5,
  MinLumpSumDeferral: 1,
  MaxLumpSumDeferral: 10,
  MinPaymentAmount: 100,
  MaxLumpSumAmount: 100_000,
  MinPremiumAmount: 10_000,
  MaxPremiumAmount: 1_000_000,
  MinLumpSumCount: 2,
  MaxGuarantee: 30,
  MinTerm: 5,
  MaxTerm: 30,
  TermTypes: ['A', 'M'],
  MaxCOLAPercent: 4,
  AssignmentFee: 750,
  SmallCaseAmount: 25_000,
  SmallCaseFee: 500,
};

const workbench = [
  aBenefit({ AnnuityType: 'LS', PaymentAmount: 50_000, PremiumAmount: 48_000, StartDate: '2025-01-31', COLA: 3, TermType: 'M', TermMonths: 4 }),
  aBenefit({ AnnuityType: 'LL', PaymentAmount: 20_000, PremiumAmount: 18_000, StartDate: '2026-01-31' }),
  aBenefit({ AnnuityType: 'PC', TermYears: 20, COLA: 3, PremiumAmount: 150_000, PaymentAmount: 1_000, StartDate: '2024-03-01' }),
];

describe('evaluateQuote', () => {
  it('runs every check for a company and passes a quote within all its rules', () => {
    const outcome = evaluateQuote(aCase(), aQuote(workbench), [company('a', everyRule)]);
    const [result] = outcome.companies;
    expect(result?.checks.map((check) => check.id)).toEqual(COMPANY_CHECKS.map((check) => check.id));
    expect(result?.checks.filter((check) => !check.pass)).toEqual([]);
    expect(result).toMatchObject({ companyId: 'a', name: 'Company a', pass: true, fee: { assignmentFee: 75_000, smallCaseFee: 0, total: 75_000 } });
  });

  it('fails a company when one check fails, and says which', () => {
    const outcome = evaluateQuote(aCase(), aQuote(workbench), [company('a', everyRule), company('b', { ...everyRule, MaxPremiumAmount: 200_000 })]);
    expect(outcome.companies.map((result) => result.pass)).toEqual([true, false]);
    expect(outcome.companies[1]?.checks.filter((check) => !check.pass).map((check) => check.message)).toEqual(['Total cost must not exceed $200,000.00']);
  });

  it('applies the field rules before checking: a lump sum is annual for 1 year, without COLA', () => {
    const outcome = evaluateQuote(aCase(), aQuote(workbench), [company('a', { MaxCOLAPercent: 3, TermTypes: ['A'] })]);
    expect(outcome.benefits[0]).toEqual({
      index: 0,
      benefit: { ...workbench[0], COLA: null, TermType: 'A', TermYears: 1, TermMonths: null, TermWeeks: null },
      messages: [],
      disabled: {
        COLA: 'lumpSumNoCola',
        TermType: 'lumpSumAnnualOneYear',
        TermYears: 'lumpSumAnnualOneYear',
        TermMonths: 'lumpSumNoMonthsWeeks',
        TermWeeks: 'lumpSumNoMonthsWeeks',
      },
    });
    expect(outcome.companies[0]?.checks.filter((check) => !check.pass).map((check) => check.id)).toEqual(['termTypes', 'maxCola']);
  });

  it('gives each benefit its term messages after the field rules', () => {
    const benefits = [
      aBenefit({ AnnuityType: 'TL', TermYears: null }),
      aBenefit({ AnnuityType: 'LO', TermMonths: 14 }),
      aBenefit({ TermType: 'S', TermMonths: 3 }),
    ];
    expect(evaluateQuote(aCase(), aQuote(benefits), []).benefits.map((benefit) => benefit.messages)).toEqual([
      ['Term is required'],
      [],
      ['Month must be blank or 6'],
    ]);
  });

  it('skips the deferral, term, annuity-type and COLA checks on an MSA-only quote', () => {
    const msaOnly = evaluateQuote(aCase(), aQuote(workbench, { QuoteType: 'MSAOnly' }), [company('a', everyRule)]);
    expect(msaOnly.companies[0]?.checks.map((check) => check.id)).toEqual(['nonQualCases', 'maxAge', 'minPayment', 'minPremium', 'maxPremium']);
    expect(msaOnly.companies[0]?.checks.find((check) => check.id === 'minPremium')?.message).toBe('MSA Amount must be at least $10,000.00');
    const msa = evaluateQuote(aCase(), aQuote(workbench, { QuoteType: 'MSA' }), [company('a', everyRule)]);
    expect(msa.companies[0]?.checks).toHaveLength(COMPANY_CHECKS.length);
  });

  it('checks each company against the benefits placed or quoted with it', () => {
    const benefits = [
      aBenefit({ CompanyId: 'a', PremiumAmount: 30_000 }),
      aBenefit({ LifeCompanies: ['b', 'c'], PremiumAmount: 20_000 }),
      aBenefit({ PremiumAmount: 5_000 }),
    ];
    const companies = ['a', 'b', 'd'].map((id) => company(id, { MaxPremiumAmount: 1, AssignmentFee: 100 }));
    const cost = (id: string) =>
      evaluateQuote(aCase(), aQuote(benefits), companies)
        .companies.find((result) => result.companyId === id)
        ?.checks.find((check) => check.id === 'maxPremium')?.quoteValue;
    expect(cost('a')).toEqual({ kind: 'money', cents: 3_500_000 });
    expect(cost('b')).toEqual({ kind: 'money', cents: 2_500_000 });
    expect(cost('d')).toEqual({ kind: 'money', cents: 500_000 });
  });

  it('charges the assignment fee once per company and nothing to a company without benefits', () => {
    const benefits = [aBenefit({ CompanyId: 'a', PremiumAmount: 10_000 }), aBenefit({ CompanyId: 'a', PremiumAmount: 10_000 })];
    const outcome = evaluateQuote(aCase(), aQuote(benefits), [company('a', everyRule), company('b', everyRule)]);
    expect(outcome.companies.map((result) => result.fee)).toEqual([
      { assignmentFee: 75_000, smallCaseFee: 50_000, total: 125_000 },
      { assignmentFee: 0, smallCaseFee: 0, total: 0 },
    ]);
  });
});

describe('benefitConcerns', () => {
  it('ties a benefit to its placed company, its quoted companies, or, with neither, to every company', () => {
    expect(benefitConcerns(aBenefit({ CompanyId: 'a' }), 'a')).toBe(true);
    expect(benefitConcerns(aBenefit({ CompanyId: 'a' }), 'b')).toBe(false);
    expect(benefitConcerns(aBenefit({ CompanyId: 'a', LifeCompanies: ['b'] }), 'b')).toBe(true);
    expect(benefitConcerns(aBenefit({ LifeCompanies: ['b'] }), 'c')).toBe(false);
    expect(benefitConcerns(aBenefit(), 'z')).toBe(true);
  });
});

describe('a rule the quote lacks the data for', () => {
  const empty = aBenefit({
    AnnuityType: null,
    TermType: null,
    TermYears: null,
    TermMonths: null,
    TermWeeks: null,
    COLA: null,
    StartDate: null,
    PremiumAmount: null,
    PaymentAmount: null,
  });

  it('is not checked, saying what is missing, and the company is not counted as accepting', () => {
    const outcome = evaluateQuote(aCase({ Annuitants: [{ Age: null }], PurchaseDate: null, IsQualified: false }), aQuote([empty]), [
      company('A', {
        MaxAge: 85,
        MinDeferral: 30,
        MaxDeferral: 5,
        MinPaymentAmount: 100,
        MinPremiumAmount: 10_000,
        MaxPremiumAmount: null,
        NonQualCases: true,
      }),
    ]);
    const [only] = outcome.companies;
    expect(only?.pass).toBe(false);
    expect(only?.checks.map((check) => [check.id, check.pass, check.message])).toEqual([
      ['nonQualCases', true, 'Non-qualified cases accepted'],
      ['maxAge', null, 'Not checked: age missing'],
      ['minDeferral', null, 'Not checked: purchase date missing'],
      ['maxDeferral', null, 'Not checked: purchase date missing'],
      ['minPayment', null, 'Not checked: payment missing'],
      ['minPremium', null, 'Not checked: premium missing'],
    ]);
  });

  it('does not concern a company that sets no such rule: it accepts', () => {
    const outcome = evaluateQuote(aCase({ Annuitants: [{ Age: null }], PurchaseDate: null, IsQualified: false }), aQuote([empty]), [
      company('B', {
        MaxAge: null,
        MinDeferral: null,
        MaxDeferral: null,
        MinPaymentAmount: null,
        MinPremiumAmount: null,
        MaxPremiumAmount: null,
        NonQualCases: true,
      }),
    ]);
    expect(outcome.companies[0]?.pass).toBe(true);
  });
});
