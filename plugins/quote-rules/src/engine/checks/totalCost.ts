import { toCents } from '../money';
import type { Benefit, Quote } from '../types';

/** Sum of the benefits' premiums in cents; null when no benefit has one yet. */
export function totalPremium(benefits: readonly Benefit[]): number | null {
  const premiums = benefits.map((benefit) => toCents(benefit.PremiumAmount)).filter((cents): cents is number => cents !== null);
  return premiums.length === 0 ? null : premiums.reduce((sum, cents) => sum + cents, 0);
}

/** Total cost: the premiums plus the quote's fee. Null while no benefit has a premium. */
export function totalCost(quote: Quote, benefits: readonly Benefit[]): number | null {
  const premium = totalPremium(benefits);
  return premium === null ? null : premium + (toCents(quote.FeeAmount) ?? 0);
}

/** An MSA-only quote is an MSA quote too. */
export function isMsaQuote(quote: Quote): boolean {
  return quote.QuoteType === 'MSA' || quote.QuoteType === 'MSAOnly';
}
