import { serviceRef } from '@portal/core';
import type { LinkedAccount, LinkedAccounts } from './contract';

/**
 * Linked bank accounts for other plugins (support tooling, dashboard, ledger views): read-only, per member.
 * Reads our own records of the aggregator's ids, balances and refresh dates; never the bank credentials.
 */
export interface BankingService {
  /** Whether the member has a linked bank (a link that finished linking, stale or not). */
  isLinked(memberId: number): Promise<boolean>;
  /** The member's banks, accounts (balances, refresh dates) and default (funding) account. */
  accounts(memberId: number): Promise<LinkedAccounts>;
  /** The default account: the member's funding account; null without one. */
  fundingAccount(memberId: number): Promise<LinkedAccount | null>;
}

export const bankingService = serviceRef<BankingService>('banking');
