import type { SubmissionKeys } from '@portal/web';
import type { SaveQuote } from '../contract';
import type { Benefit, Case, Quote } from '../engine/index';

/** The workbench form's values: the save body less its Id and Version, with the company picker as one flag per company. */
export interface QuoteFormValues {
  Case: { Annuitants: { Age: number | null }[]; IsQualified: boolean; PurchaseDate: string };
  Quote: { QuoteType: Quote['QuoteType']; FeeAmount: number | null; Benefits: FormBenefit[] };
  Picked: Record<string, boolean>;
}

export type FormBenefit = Omit<Benefit, 'StartDate'> & { StartDate: string };

export const emptyBenefit = (): FormBenefit => ({
  AnnuityType: null,
  TermType: null,
  TermYears: null,
  TermMonths: null,
  TermWeeks: null,
  COLA: null,
  StartDate: '',
  PremiumAmount: null,
  PaymentAmount: null,
  LifeCompanies: [],
  CompanyId: null,
});

export const emptyValues = (): QuoteFormValues => ({
  Case: { Annuitants: [{ Age: null }], IsQualified: false, PurchaseDate: '' },
  Quote: { QuoteType: 'Standard', FeeAmount: null, Benefits: [emptyBenefit()] },
  Picked: {},
});

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const date = (value: string | null | undefined): string | null => (value && ISO.test(value.trim()) ? value.trim() : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export function toCase(values: QuoteFormValues): Case {
  return {
    Annuitants: values.Case.Annuitants.map((a) => ({ Age: num(a.Age) })),
    IsQualified: Boolean(values.Case.IsQualified),
    PurchaseDate: date(values.Case.PurchaseDate),
  };
}

export function toBenefit(b: FormBenefit): Benefit {
  return {
    ...b,
    TermYears: num(b.TermYears),
    TermMonths: num(b.TermMonths),
    TermWeeks: num(b.TermWeeks),
    COLA: num(b.COLA),
    PremiumAmount: num(b.PremiumAmount),
    PaymentAmount: num(b.PaymentAmount),
    StartDate: date(b.StartDate),
    LifeCompanies: b.LifeCompanies ?? [],
    CompanyId: b.CompanyId ?? null,
  };
}

export function toQuote(values: QuoteFormValues): Quote {
  return { QuoteType: values.Quote.QuoteType, FeeAmount: num(values.Quote.FeeAmount), Benefits: values.Quote.Benefits.map(toBenefit) };
}

export const pickedIds = (values: QuoteFormValues, order: readonly string[]) => order.filter((id) => values.Picked?.[id]);

/** The saved quote a save overwrites: its Id and the Version it was read at (a stale Version is refused, 409). */
export interface SaveTarget {
  Id: number;
  Version: number;
}

/** The save body: a new quote (no target: no Id, no Version) or an overwrite of the quote as it was read. */
export function toSaveBody(values: QuoteFormValues, target: SaveTarget | null, order: readonly string[]): SaveQuote {
  return { Id: target?.Id ?? null, Version: target?.Version ?? null, Case: toCase(values), Quote: toQuote(values), CompanyIds: pickedIds(values, order) };
}

/**
 * The body the save sends: a new quote carries its submission's IdempotencyKey (the same while the quote is the same,
 * so a retry after a failure whose answer was lost adds it once); an overwrite goes by its Version, without one.
 */
export function withCreateKey(body: SaveQuote, keys: Pick<SubmissionKeys, 'keyFor'>): SaveQuote {
  return body.Id === null ? { ...body, IdempotencyKey: keys.keyFor(body) } : body;
}

export function fromSaved(saved: Omit<SaveQuote, 'Id' | 'Version'>): QuoteFormValues {
  return {
    Case: { Annuitants: saved.Case.Annuitants, IsQualified: saved.Case.IsQualified, PurchaseDate: saved.Case.PurchaseDate ?? '' },
    Quote: {
      QuoteType: saved.Quote.QuoteType,
      FeeAmount: saved.Quote.FeeAmount,
      Benefits: saved.Quote.Benefits.map((b) => ({ ...b, StartDate: b.StartDate ?? '' })),
    },
    Picked: Object.fromEntries(saved.CompanyIds.map((id) => [id, true])),
  };
}
