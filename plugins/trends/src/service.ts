import { type BrandManifest, serviceRef } from '@portal/core';

/** A member's balance as its owner (the ledger) reads it. */
export interface BalanceReading {
  /** Integer cents. */
  balanceCents: number;
  accountType: string;
}

/**
 * Where a balance comes from: the ledger plugin implements it (its own balance and account type) and calls
 * checkBalance with it after every change of a member's balance (`plugins/ledger/src/server/lowBalance.ts`).
 */
export interface BalanceSource {
  read(memberId: number): Promise<BalanceReading | null>;
}

export interface TrendsService {
  /**
   * Records a member's balance; when it has just dropped under LOW_BALANCE_THRESHOLD_CENTS (first reading under it,
   * or the previous one at or over it) the 'Low Account Balance' e-mail is queued. Reading it again under the
   * threshold sends nothing; climbing back over re-arms it. Resolves with whether a mail was queued. `brand` (the
   * site the member uses) signs the mail; without it the portal's generic sender is used.
   */
  observeBalance(memberId: number, reading: BalanceReading, brand?: BrandManifest | null): Promise<{ sent: boolean; below: boolean }>;
  /** Reads the balance from a source and observes it (nothing when the source has none). */
  checkBalance(memberId: number, source: BalanceSource, brand?: BrandManifest | null): Promise<{ sent: boolean; below: boolean } | null>;
}

export const trendsService = serviceRef<TrendsService>('trends');
