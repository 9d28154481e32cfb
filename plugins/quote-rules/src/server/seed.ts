import type { SeedContext } from '@portal/server';
import type { CompanyRules, TermType } from '../engine/index';

const NAMES = [
  'Evergreen Mutual Life',
  // english-only: a life company's name (seed data, shown as stored), not a message
  'Harbor Annuity Co.',
  'Keystone Life Assurance',
  'Pinecrest Insurance',
  'Summit Structured Life',
  'Bluewater Life',
  'Granite State Annuity',
  'Northstar Life & Casualty',
  'Prairie Mutual',
  'Redwood Settlement Life',
  'Silverline Annuity',
  'Tidewater Life',
];

/**
 * The first company's rules are fixed (the end-to-end test and the demo rely on them): premium at least
 * $50,000, age at most 85, period certain 5 to 30 years. The others draw varied rules from ctx.random.
 */
export const ANCHOR_RULES: CompanyRules = {
  NonQualCases: true,
  MaxAge: 85,
  MinDeferral: 30,
  MaxDeferral: 40,
  MinLumpSumDeferral: 1,
  MaxLumpSumDeferral: 40,
  MinPaymentAmount: 100,
  MaxLumpSumAmount: 1_000_000,
  MinPremiumAmount: 50_000,
  MaxPremiumAmount: 5_000_000,
  MinLumpSumCount: null,
  MaxGuarantee: 40,
  MinTerm: 5,
  MaxTerm: 30,
  TermTypes: null,
  MaxCOLAPercent: 5,
  AssignmentFee: 750,
  SmallCaseAmount: 25_000,
  SmallCaseFee: 250,
};

export function generatedRules(random: () => number): CompanyRules {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const maybe = <T>(value: T): T | null => (random() < 0.25 ? null : value);
  const allTypes: TermType[] = ['A', 'S', 'Q', 'M', 'B', 'W'];
  return {
    NonQualCases: random() < 0.7,
    MaxAge: maybe(pick([75, 80, 85, 90, 95])),
    MinDeferral: maybe(pick([0, 15, 30, 60, 90])),
    MaxDeferral: maybe(pick([20, 30, 40, 50])),
    MinLumpSumDeferral: maybe(pick([0, 1, 3, 6, 12])),
    MaxLumpSumDeferral: maybe(pick([20, 30, 40])),
    MinPaymentAmount: maybe(pick([50, 100, 250, 500])),
    MaxLumpSumAmount: maybe(pick([250_000, 500_000, 1_000_000, 2_500_000])),
    MinPremiumAmount: maybe(pick([5_000, 10_000, 25_000, 50_000, 100_000])),
    MaxPremiumAmount: maybe(pick([1_000_000, 2_000_000, 5_000_000, 10_000_000])),
    MinLumpSumCount: maybe(pick([1, 2, 3])),
    MaxGuarantee: maybe(pick([20, 30, 40, 50])),
    MinTerm: maybe(pick([1, 2, 5])),
    MaxTerm: maybe(pick([20, 30, 40, 50])),
    TermTypes: random() < 0.5 ? null : allTypes.filter((type) => type === 'M' || type === 'A' || random() < 0.5),
    MaxCOLAPercent: maybe(pick([3, 4, 5, 6])),
    AssignmentFee: maybe(pick([0, 500, 750, 1_000])),
    SmallCaseAmount: maybe(pick([10_000, 25_000, 50_000])),
    SmallCaseFee: maybe(pick([100, 250, 500])),
  };
}

/** A dozen life companies with varied rules; deterministic from ctx.random. Re-running leaves existing rows alone. */
export async function seed(ctx: SeedContext): Promise<void> {
  for (const [index, name] of NAMES.entries()) {
    const rules = index === 0 ? ANCHOR_RULES : generatedRules(ctx.random);
    const id = `LC${String(index + 1).padStart(2, '0')}`;
    await ctx.sql.query('INSERT INTO quote_companies (id, name, sort, rules) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [
      id,
      name,
      index + 1,
      JSON.stringify(rules),
    ]);
  }
  ctx.log(`quote-rules: ${NAMES.length} life companies`);
}
