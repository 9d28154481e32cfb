import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateQuote } from './index';
import { ANNUITY_TYPES, type Benefit, type Case, type Company, type CompanyRules, QUOTE_TYPES, type Quote, TERM_TYPES, type TermType } from './types';

const COMPANY_IDS = ['a', 'b', 'c'];

/** Numbers as a form or a database may hold them: small and round, or any double at all (NaN and infinities too). */
const aNumber = fc.oneof(
  fc.integer({ min: -3, max: 120 }),
  fc.integer({ min: 0, max: 5_000_000 }).map((cents) => cents / 100),
  fc.constantFrom(0, 1, 6, 12, 52),
  fc.double(),
);
const maybeNumber = fc.option(aNumber, { nil: null });

const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2080-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const maybeDate = fc.option(fc.oneof({ weight: 8, arbitrary: isoDate }, { weight: 1, arbitrary: fc.constantFrom('', '2023-02-29', 'next year') }), {
  nil: null,
});

const benefit: fc.Arbitrary<Benefit> = fc.record({
  AnnuityType: fc.option(fc.constantFrom(...ANNUITY_TYPES), { nil: null }),
  TermType: fc.option(fc.constantFrom(...TERM_TYPES), { nil: null }),
  TermYears: maybeNumber,
  TermMonths: maybeNumber,
  TermWeeks: maybeNumber,
  COLA: maybeNumber,
  StartDate: maybeDate,
  PremiumAmount: maybeNumber,
  PaymentAmount: maybeNumber,
  LifeCompanies: fc.subarray(COMPANY_IDS),
  CompanyId: fc.option(fc.constantFrom(...COMPANY_IDS, 'elsewhere'), { nil: null }),
});

const caseInput: fc.Arbitrary<Case> = fc.record({
  Annuitants: fc.array(fc.record({ Age: maybeNumber }), { maxLength: 3 }),
  IsQualified: fc.boolean(),
  PurchaseDate: maybeDate,
});

const quote: fc.Arbitrary<Quote> = fc.record({
  QuoteType: fc.constantFrom(...QUOTE_TYPES),
  Benefits: fc.array(benefit, { maxLength: 5 }),
  FeeAmount: maybeNumber,
});

const rules: fc.Arbitrary<CompanyRules> = fc.record({
  NonQualCases: fc.boolean(),
  MaxAge: maybeNumber,
  MinDeferral: maybeNumber,
  MaxDeferral: maybeNumber,
  MinLumpSumDeferral: maybeNumber,
  MaxLumpSumDeferral: maybeNumber,
  MinPaymentAmount: maybeNumber,
  MaxLumpSumAmount: maybeNumber,
  MinPremiumAmount: maybeNumber,
  MaxPremiumAmount: maybeNumber,
  MinLumpSumCount: maybeNumber,
  MaxGuarantee: maybeNumber,
  MinTerm: maybeNumber,
  MaxTerm: maybeNumber,
  TermTypes: fc.option(fc.subarray([...TERM_TYPES]), { nil: null }),
  MaxCOLAPercent: maybeNumber,
  AssignmentFee: maybeNumber,
  SmallCaseAmount: maybeNumber,
  SmallCaseFee: maybeNumber,
});

const companies: fc.Arbitrary<Company[]> = fc
  .tuple(rules, rules, rules)
  .map((sets) => sets.map((set, index) => ({ id: COMPANY_IDS[index] ?? '', name: `Company ${index}`, rules: set })));

type Loosenable = Exclude<keyof CompanyRules, 'AssignmentFee' | 'SmallCaseAmount' | 'SmallCaseFee'>;
const RAISED: readonly Loosenable[] = [
  'MaxAge',
  'MaxDeferral',
  'MaxLumpSumDeferral',
  'MaxLumpSumAmount',
  'MaxPremiumAmount',
  'MaxGuarantee',
  'MaxTerm',
  'MaxCOLAPercent',
];
const LOWERED: readonly Loosenable[] = ['MinDeferral', 'MinLumpSumDeferral', 'MinPaymentAmount', 'MinPremiumAmount', 'MinLumpSumCount', 'MinTerm'];

interface Loosening {
  field: Loosenable;
  by: number;
  drop: boolean;
  extraTypes: TermType[];
}

/** One rule made easier to meet: a maximum raised, a minimum lowered, more term types, non-qualified allowed, or a limit dropped. */
const loosening: fc.Arbitrary<Loosening> = fc.record({
  field: fc.constantFrom<Loosenable>(...RAISED, ...LOWERED, 'TermTypes', 'NonQualCases'),
  by: fc.oneof(fc.constantFrom(0, 0.01, 1, 12), fc.double({ min: 0, max: 1e9, noNaN: true })),
  drop: fc.boolean(),
  extraTypes: fc.subarray([...TERM_TYPES]),
});

function loosen(set: CompanyRules, { field, by, drop, extraTypes }: Loosening): CompanyRules {
  if (field === 'NonQualCases') return { ...set, NonQualCases: true };
  if (field === 'TermTypes') {
    const offered = set.TermTypes;
    return { ...set, TermTypes: drop || offered === null ? null : [...new Set([...offered, ...extraTypes])] };
  }
  const value = set[field];
  if (drop || value === null) return { ...set, [field]: null };
  return { ...set, [field]: RAISED.includes(field) ? value + by : value - by };
}

const failing = (outcome: ReturnType<typeof evaluateQuote>, index: number) =>
  outcome.companies[index]?.checks.filter((check) => !check.pass).map((check) => check.id) ?? [];

describe('engine properties', () => {
  it('never throws on well-typed input and answers one outcome per company and per benefit', () => {
    fc.assert(
      fc.property(caseInput, quote, companies, (input, theQuote, theCompanies) => {
        const outcome = evaluateQuote(input, theQuote, theCompanies);
        expect(outcome.companies.map((company) => company.companyId)).toEqual(COMPANY_IDS);
        expect(outcome.benefits.map((result) => result.index)).toEqual(theQuote.Benefits.map((_, index) => index));
        for (const company of outcome.companies) {
          expect(company.pass).toBe(company.checks.every((check) => check.pass));
          expect(new Set(company.checks.map((check) => check.id)).size).toBe(company.checks.length);
          for (const check of company.checks) expect(check.message).not.toBe('');
          expect(Number.isFinite(company.fee.total)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic and leaves its input untouched', () => {
    fc.assert(
      fc.property(caseInput, quote, companies, (input, theQuote, theCompanies) => {
        const copies = structuredClone({ input, theQuote, theCompanies });
        const first = evaluateQuote(input, theQuote, theCompanies);
        expect(evaluateQuote(copies.input, copies.theQuote, copies.theCompanies)).toEqual(first);
        expect({ input, theQuote, theCompanies }).toEqual(copies);
      }),
    );
  });

  it('a passing quote keeps passing when a rule is loosened, and no check starts failing', () => {
    fc.assert(
      fc.property(caseInput, quote, rules, loosening, (input, theQuote, set, change) => {
        const before = evaluateQuote(input, theQuote, [{ id: 'a', name: 'A', rules: set }]);
        const after = evaluateQuote(input, theQuote, [{ id: 'a', name: 'A', rules: loosen(set, change) }]);
        if (before.companies[0]?.pass) expect(after.companies[0]?.pass).toBe(true);
        for (const id of failing(after, 0)) expect(failing(before, 0)).toContain(id);
      }),
      { numRuns: 1_000 },
    );
  });

  it('a quote built to pass keeps passing when any rule is loosened', () => {
    const passing = fc.record({
      years: fc.integer({ min: 5, max: 30 }),
      premium: fc.integer({ min: 10_000, max: 1_000_000 }),
      cola: fc.integer({ min: 0, max: 399 }).map((hundredths) => hundredths / 100),
    });
    const strict: CompanyRules = {
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
      MinLumpSumCount: 1,
      MaxGuarantee: 30,
      MinTerm: 5,
      MaxTerm: 30,
      TermTypes: ['M'],
      MaxCOLAPercent: 4,
      AssignmentFee: 750,
      SmallCaseAmount: 25_000,
    };
    fc.assert(
      fc.property(passing, loosening, ({ years, premium, cola }, change) => {
        const input: Case = { Annuitants: [{ Age: 60 }], IsQualified: false, PurchaseDate: '2024-01-31' };
        const benefits: Benefit[] = [
          {
            AnnuityType: 'PC',
            TermType: 'M',
            TermYears: years,
            TermMonths: null,
            TermWeeks: null,
            COLA: cola,
            StartDate: '2024-03-01',
            PremiumAmount: premium,
            PaymentAmount: 1_000,
            LifeCompanies: [],
            CompanyId: null,
          },
        ];
        const theQuote: Quote = { QuoteType: 'Standard', Benefits: benefits, FeeAmount: null };
        expect(evaluateQuote(input, theQuote, [{ id: 'a', name: 'A', rules: strict }]).companies[0]?.pass).toBe(true);
        expect(evaluateQuote(input, theQuote, [{ id: 'a', name: 'A', rules: loosen(strict, change) }]).companies[0]?.pass).toBe(true);
      }),
    );
  });
});
