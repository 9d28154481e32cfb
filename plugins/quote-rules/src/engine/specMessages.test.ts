import { describe, expect, it } from 'vitest';
import {
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
} from './checks/index';
import { termMessages } from './termMessages';
import { aBenefit, aContext } from './testSupport';

/**
 * Spec 02 section 5, annuity-quote part: each line word for word (left), the input that triggers it, and the
 * message the engine gives. Texts the spec quotes are asserted verbatim below the table.
 */
const table: { spec: string; message: () => string[] | string | undefined; expected: string[] | string }[] = [
  {
    spec: "semi-annual 'Month must be blank or 6'",
    message: () => termMessages(aBenefit({ TermType: 'S', TermMonths: 3 })),
    expected: ['Month must be blank or 6'],
  },
  {
    spec: "quarterly 'Month must be 3, 6 or 9'",
    message: () => termMessages(aBenefit({ TermType: 'Q', TermMonths: 4 })),
    expected: ['Month must be 3, 6 or 9'],
  },
  {
    spec: "biweekly 'Weeks must be even number'",
    message: () => termMessages(aBenefit({ TermType: 'B', TermWeeks: 3 })),
    expected: ['Weeks must be even number'],
  },
  {
    spec: "all zero or empty 'Term is required'",
    message: () => termMessages(aBenefit({ TermYears: 0, TermMonths: null, TermWeeks: 0 })),
    expected: ['Term is required'],
  },
  {
    spec: "months 12 or more 'Month must be less than 12'",
    message: () => termMessages(aBenefit({ TermMonths: 12 })),
    expected: ['Month must be less than 12'],
  },
  { spec: "weeks 52 or more 'Week must be less than 52'", message: () => termMessages(aBenefit({ TermWeeks: 52 })), expected: ['Week must be less than 52'] },
  {
    spec: 'Non-qualified cases refused when the company disallows them and the case is qualified.',
    message: () => checkNonQualCases(aContext([], { NonQualCases: false }, { caseInput: { IsQualified: true } })).message,
    expected: 'Non-qualified cases not accepted',
  },
  {
    spec: 'Age must not exceed the maximum age.',
    message: () => checkMaxAge(aContext([], { MaxAge: 85 }, { caseInput: { Annuitants: [{ Age: 86 }] } }))?.message,
    expected: 'Age must not exceed 85',
  },
  {
    spec: 'Benefits start on or after purchase date plus minimum deferral days.',
    message: () => checkMinDeferral(aContext([aBenefit({ StartDate: '2024-02-01' })], { MinDeferral: 30 }))?.message,
    expected: 'Benefits must start on or after 03/01/2024 (purchase date plus 30 days)',
  },
  {
    spec: 'Lump sum starts on or after purchase date plus minimum lump sum deferral (months) and not beyond the maximum lump sum deferral (years).',
    message: () => {
      const context = aContext([aBenefit({ AnnuityType: 'LS', StartDate: '2030-01-01' })], { MinLumpSumDeferral: 6, MaxLumpSumDeferral: 5 });
      return [checkMinLumpSumDeferral(context)?.message ?? '', checkMaxLumpSumDeferral(context)?.message ?? ''];
    },
    expected: [
      'Lump sums must start on or after 07/31/2024 (purchase date plus 6 months)',
      'Lump sums must start on or before 01/31/2029 (purchase date plus 5 years)',
    ],
  },
  {
    spec: 'At least one benefit starts by purchase date plus maximum deferral (years).',
    message: () => checkMaxDeferral(aContext([aBenefit({ StartDate: '2030-01-01' })], { MaxDeferral: 1 }))?.message,
    expected: 'At least one benefit must start on or before 01/31/2025 (purchase date plus 1 year)',
  },
  {
    spec: 'Payment at least the minimum payment; lump sum payment not above the maximum.',
    message: () => {
      const context = aContext([aBenefit({ AnnuityType: 'LS', PaymentAmount: 90 })], { MinPaymentAmount: 100, MaxLumpSumAmount: 50 });
      return [checkMinPayment(context)?.message ?? '', checkMaxLumpSumAmount(context)?.message ?? ''];
    },
    expected: ['Payment must be at least $100.00', 'Lump sum payment must not exceed $50.00'],
  },
  {
    spec: "Total cost at least the minimum and at most the maximum premium; for an MSA quote the wording is 'MSA Amount must be at least/not exceed'.",
    message: () => {
      const rules = { MinPremiumAmount: 10_000, MaxPremiumAmount: 5_000 };
      const standard = aContext([aBenefit({ PremiumAmount: 7_500 })], rules);
      const msa = aContext([aBenefit({ PremiumAmount: 7_500 })], rules, { quote: { QuoteType: 'MSA' } });
      return [standard, msa].flatMap((context) => [checkMinPremium(context)?.message ?? '', checkMaxPremium(context)?.message ?? '']);
    },
    expected: [
      'Total cost must be at least $10,000.00',
      'Total cost must not exceed $5,000.00',
      'MSA Amount must be at least $10,000.00',
      'MSA Amount must not exceed $5,000.00',
    ],
  },
  {
    spec: 'At least N lump sums required when some exist and N is above 1.',
    message: () => checkMinLumpSumCount(aContext([aBenefit({ AnnuityType: 'LS' })], { MinLumpSumCount: 3 }))?.message,
    expected: 'At least 3 lump sums required',
  },
  {
    spec: 'Guarantee period not above the maximum in years.',
    message: () => checkMaxGuarantee(aContext([aBenefit({ TermYears: 25 })], { MaxGuarantee: 20 }))?.message,
    expected: 'Guarantee period must not exceed 20 years',
  },
  {
    spec: 'Term at least the minimum and at most the maximum (period certain or temp life only).',
    message: () => {
      const context = aContext([aBenefit({ AnnuityType: 'TL', TermYears: 40 })], { MinTerm: 5, MaxTerm: 30 });
      return [checkMinTerm(context)?.message ?? '', checkMaxTerm(context)?.message ?? ''];
    },
    expected: ['Term must be at least 5 years', 'Term must not exceed 30 years'],
  },
  {
    spec: "Term types not offered: '{type} term(s) not accepted'.",
    message: () => checkTermTypes(aContext([aBenefit({ TermType: 'B' })], { TermTypes: ['A', 'M'] }))?.message,
    expected: 'Biweekly term(s) not accepted',
  },
  {
    spec: 'COLA less than the maximum percent (not for lump sums).',
    message: () => checkMaxCola(aContext([aBenefit({ COLA: 3.5 })], { MaxCOLAPercent: 3 }))?.message,
    expected: 'COLA must be less than 3%',
  },
];

describe('spec 02 section 5 messages, word for word', () => {
  it.each(table)('$spec', ({ message, expected }) => {
    expect(message()).toEqual(expected);
  });

  it('gives the six benefit term messages exactly as the spec quotes them', () => {
    const quoted = table.slice(0, 6).map((row) => /'([^']+)'/.exec(row.spec)?.[1]);
    expect(quoted).toEqual([
      'Month must be blank or 6',
      'Month must be 3, 6 or 9',
      'Weeks must be even number',
      'Term is required',
      'Month must be less than 12',
      'Week must be less than 52',
    ]);
    expect(table.slice(0, 6).map((row) => row.expected)).toEqual(quoted.map((text) => [text]));
  });

  it("words MSA quotes 'MSA Amount must be at least/not exceed'", () => {
    const [atLeast, notExceed] = 'MSA Amount must be at least/not exceed'.split('/');
    const messages = table[12]?.message();
    expect(messages?.[2]?.startsWith(`${atLeast} `)).toBe(true);
    expect(messages?.[3]?.startsWith(`MSA Amount must ${notExceed} `)).toBe(true);
  });

  it("fills '{type} term(s) not accepted' with the name of the refused type", () => {
    expect(table[16]?.message()).toBe('{type} term(s) not accepted'.replace('{type}', 'Biweekly'));
  });
});
