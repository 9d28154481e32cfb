/**
 * Wire shapes of the annuity-quote rule set (spec 02 sections 3 and 4). Field names are the spec's.
 *
 * Money: the wire carries decimal dollars (PremiumAmount 1250.5 is $1,250.50). The engine turns every
 * amount into integer cents once, with toCents (dollars × 100, rounded to the nearest cent), and compares
 * cents only, so binary fractions such as 0.1 + 0.2 never decide a check. Check values report cents.
 *
 * Dates are ISO calendar dates, 'YYYY-MM-DD' (a trailing time, as .NET sends, is ignored).
 * A null number means the field is empty; a null rule value means the company sets no limit.
 */

/** LS and LL lump sum; LO life only; IR life with refund; CL and PC period certain; TL temp life. */
export const ANNUITY_TYPES = ['LS', 'LL', 'LO', 'IR', 'CL', 'PC', 'TL'] as const;
export type AnnuityType = (typeof ANNUITY_TYPES)[number];

/** A annual, S semi-annual, Q quarterly, M monthly, B biweekly, W weekly. */
export const TERM_TYPES = ['A', 'S', 'Q', 'M', 'B', 'W'] as const;
export type TermType = (typeof TERM_TYPES)[number];

/**
 * The spec names MSA quotes and MSA-only quotes but not their codes: 'MSA' is a quote that includes a
 * Medicare set-aside, 'MSAOnly' one that is nothing but the set-aside, 'Standard' any other.
 */
export const QUOTE_TYPES = ['Standard', 'MSA', 'MSAOnly'] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];

export interface Annuitant {
  Age: number | null;
}

export interface Case {
  Annuitants: Annuitant[];
  IsQualified: boolean;
  PurchaseDate: string | null;
}

export interface Benefit {
  AnnuityType: AnnuityType | null;
  TermType: TermType | null;
  TermYears: number | null;
  TermMonths: number | null;
  TermWeeks: number | null;
  /** Cost-of-living adjustment, percent per year (2.5 is 2.5%). */
  COLA: number | null;
  StartDate: string | null;
  /** Dollars. */
  PremiumAmount: number | null;
  /** Dollars. */
  PaymentAmount: number | null;
  /** Ids of the companies this benefit is quoted with. */
  LifeCompanies: string[];
  /** The company the benefit is placed with, once chosen. */
  CompanyId: string | null;
}

export interface Quote {
  QuoteType: QuoteType;
  Benefits: Benefit[];
  /** Dollars; counted in the quote's total cost. */
  FeeAmount: number | null;
}

/** Units: deferrals as the spec words them (MinDeferral days, MinLumpSumDeferral months, the other two years); terms and guarantee in years; money in dollars. */
export interface CompanyRules {
  /** False: the company refuses non-qualified cases. */
  NonQualCases: boolean;
  MaxAge: number | null;
  MinDeferral: number | null;
  MaxDeferral: number | null;
  MinLumpSumDeferral: number | null;
  MaxLumpSumDeferral: number | null;
  MinPaymentAmount: number | null;
  MaxLumpSumAmount: number | null;
  MinPremiumAmount: number | null;
  MaxPremiumAmount: number | null;
  MinLumpSumCount: number | null;
  MaxGuarantee: number | null;
  MinTerm: number | null;
  MaxTerm: number | null;
  /** Term types the company offers; null offers all. */
  TermTypes: TermType[] | null;
  MaxCOLAPercent: number | null;
  AssignmentFee: number | null;
  SmallCaseAmount: number | null;
  /**
   * Not among the spec's fields: the spec charges "a small-case fee" below SmallCaseAmount but gives no
   * amount, so the amount is a rule value of its own. Absent or null: no small-case fee.
   */
  SmallCaseFee?: number | null;
}

export interface Company {
  id: string;
  name: string;
  rules: CompanyRules;
}
