import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { REIMBURSEMENT_PAYEE } from '../../contract';
import { daysAgo, money, monthsAgo, shownPayee, statusName } from './format';

describe('claims display helpers', () => {
  it('shows statuses 29 and 30 as paid (8)', () => {
    const names = new Map([
      [8, 'Paid'],
      [29, 'Non Redeemed Payment'],
      [30, 'Ready for Reissue'],
      [2, 'In Review'],
    ]);
    expect(statusName(names, 29)).toBe('Paid');
    expect(statusName(names, 30)).toBe('Paid');
    expect(statusName(names, 2)).toBe('In Review');
  });
  it('formats money as dollars with 2 decimals and grouping, and leaves no amount empty', () => {
    expect(money(12.5)).toBe('$12.50');
    expect(money(16824.6)).toBe('$16,824.60');
    expect(money(null)).toBe('');
  });
  it('computes the default ranges: 6 months and 90 days back', () => {
    const now = new Date(2026, 10, 21);
    expect(monthsAgo(6, now)).toBe('2026-05-21');
    expect(daysAgo(90, now)).toBe('2026-08-23');
  });
});

describe("a bill's payee as the pages show it", () => {
  const t = ((key: string) => (key === 'payee.reimbursement' ? 'Reembolso al miembro' : key)) as unknown as TFunction;
  it("shows a reimbursement's payee in the reader's language", () => {
    expect(shownPayee(t, { PayeeID: null, PayeeName: REIMBURSEMENT_PAYEE })).toBe('Reembolso al miembro');
  });
  it('shows any other payee as stored, a shared payee of that name too', () => {
    expect(shownPayee(t, { PayeeID: null, PayeeName: 'Dr. Ruiz' })).toBe('Dr. Ruiz');
    expect(shownPayee(t, { PayeeID: 7, PayeeName: REIMBURSEMENT_PAYEE })).toBe(REIMBURSEMENT_PAYEE);
  });
});
