import { serviceRef } from '@portal/core';
import type { SqlClient } from '@portal/server';

/** One posted ledger row as other plugins read it: amounts in integer cents, signed (expenses negative). */
export interface LedgerEntry {
  id: number;
  /** YYYY-MM-DD */
  date: string;
  code: string | null;
  company: string | null;
  description: string | null;
  /** 1 Expense, 2 Deposit, 3 Interest */
  typeId: number;
  typeName: string;
  signedCents: number;
  /** The running balance after this row (the initial balance, 0 when none is set, plus every row up to this one). */
  balanceCents: number;
}

export interface LedgerPeriod {
  /** The initial balance, null while none is set. */
  initialCents: number | null;
  /** The balance before the period's first day. */
  openingCents: number;
  /** The balance after the period's last row. */
  closingCents: number;
  rows: LedgerEntry[];
}

/** A transaction of a linked bank account as it enters the ledger (source 'bank'). */
export interface BankLedgerRow {
  /** The aggregator's id of the transaction: a row enters the ledger once. */
  ref: string;
  /** YYYY-MM-DD */
  date: string;
  /** The bank and account, shown as the ledger row's company. */
  company: string;
  description: string;
  /** Signed: debits negative (an expense), credits positive (a deposit). */
  signedCents: number;
}

/**
 * Access to a member's ledger, for statements and documents (ledger rows exclude card holds and voids), and the bank
 * feed: linked accounts' transactions enter the ledger's bank view (source 'bank'), read-only there.
 */
export interface LedgerService {
  /** The member's rows dated from..to (inclusive, YYYY-MM-DD; either open) with opening and closing balances. */
  period(memberId: number, from: string | null, to: string | null): Promise<LedgerPeriod>;
  /** The first and last dates of the member's rows; null when the ledger has none. */
  span(memberId: number): Promise<{ first: string; last: string } | null>;
  /**
   * A mark of what `period` and `span` answer for the member, read from two primary keys (no rows are read): it
   * changes, in the writer's transaction, with every insert and delete of the member's rows, every change of what a
   * row says (day, status, code, company, description, type, amount; not a report marking it), and when the initial
   * balance is set. Equal marks, equal rows: a reader that derived something from the rows keeps the mark it read
   * before reading them and reads them again only once the mark differs.
   */
  changeMark(memberId: number): Promise<string>;
  /**
   * Posts linked-bank transactions not yet in the ledger (idempotent by ref, in one transaction); answers how many were
   * new. When any was, the low-balance rule (trends' checkBalance on the ledger's balance) runs once after the commit,
   * as 'system', the mail signed by the member's brand; it never fails the posting. With `tx` it runs in the caller's
   * transaction (the banking sync passes the one that mirrors the bank's rows: they and the ledger's commit together)
   * and runs no rule: the caller runs `afterBankPosting` once after its commit when the answer was above 0.
   */
  postBankTransactions(memberId: number, rows: readonly BankLedgerRow[], tx?: SqlClient): Promise<number>;
  /**
   * The low-balance rule a posting without `tx` runs after its commit, for a posting made in the caller's transaction:
   * run it once after that transaction committed, when the posting added rows. It never throws.
   */
  afterBankPosting(memberId: number): Promise<void>;
  /**
   * Withdraws the bank rows with these refs that were not reported to the federal payer (a bank unlinked); answers how
   * many. A row a send holds while it waits for the payer counts as reported: it stays. With `tx` it runs in the
   * caller's transaction (the banking plugin's unlink passes the one that deletes the link: the link and its ledger rows
   * go together or not at all); without, in a transaction of its own.
   */
  withdrawBankTransactions(memberId: number, refs: readonly string[], tx?: SqlClient): Promise<number>;
}

export const ledgerService = serviceRef<LedgerService>('ledger');
