import type { BillingTransaction } from '../contract';

/** How many payments the billing page lists before "Show all". */
export const PAYMENTS_SHOWN = 10;

/** A payment's status as the member reads it (the keys of the catalogue's `payments.status`). */
export type PaymentStatus = 'paid' | 'refunded' | 'cancelled' | 'declined' | 'held' | 'pending';

const STATUS: Readonly<Record<string, PaymentStatus>> = {
  Charged: 'paid',
  Refunded: 'refunded',
  Refund: 'refunded',
  Voided: 'cancelled',
  Declined: 'declined',
  Authorized: 'held',
  Pending: 'pending',
};

export interface MemberPayment {
  id: number;
  date: string;
  description: string | null;
  /** Dollars, as the API answers them. */
  amount: number;
  status: PaymentStatus;
}

/**
 * The member's payments from their billing transactions, newest first as the API lists them: each charge, membership
 * charge and hold once, with what became of it. The refund and void records are not lines of their own: the payment
 * they reversed reads Refunded or Cancelled.
 */
export function memberPayments(transactions: readonly BillingTransaction[]): MemberPayment[] {
  return transactions
    .filter((t) => t.Kind !== 'refund' && t.Kind !== 'void')
    .map((t) => ({ id: t.TransactionID, date: t.DateCreated, description: t.Description, amount: t.Amount, status: STATUS[t.Status] ?? 'pending' }));
}
