import { describe, expect, it } from 'vitest';
import type { BillingTransaction } from '../contract';
import { memberPayments } from './payments';

const tx = (id: number, Kind: string, Status: string, Amount = 10, Description: string | null = `payment ${id}`): BillingTransaction => ({
  TransactionID: id,
  Kind,
  Status,
  Amount,
  Description,
  ProviderTransactionID: id + 100,
  PANumber: null,
  ClaimID: null,
  DateCreated: `2026-11-${String(id).padStart(2, '0')}T10:00:00.000Z`,
});

describe("the member's payments on the billing page", () => {
  it('lists each payment once, keeping the order, with what became of it; refund and void records are not lines', () => {
    const list = memberPayments([
      tx(9, 'refund', 'Charged', 48),
      tx(8, 'void', 'Charged', 19.99),
      tx(7, 'prepull', 'Authorized', 210.15),
      tx(6, 'charge', 'Voided', 19.99),
      tx(5, 'charge', 'Refunded', 48),
      tx(4, 'charge', 'Declined', 64.1),
      tx(3, 'subscription', 'Charged', 12, 'Membresía mensual'),
    ]);
    expect(list.map((p) => [p.id, p.status, p.amount])).toEqual([
      [7, 'held', 210.15],
      [6, 'cancelled', 19.99],
      [5, 'refunded', 48],
      [4, 'declined', 64.1],
      [3, 'paid', 12],
    ]);
    expect(list.at(-1)).toMatchObject({ description: 'Membresía mensual', date: '2026-11-03T10:00:00.000Z' });
  });

  it('reads a status it does not know as pending rather than paid', () => {
    expect(memberPayments([tx(1, 'charge', 'Something new')])[0]?.status).toBe('pending');
  });
});
