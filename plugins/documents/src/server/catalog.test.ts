import type { LedgerEntry } from '@portal/plugin-ledger/service';
import { describe, expect, it } from 'vitest';
import { depletions } from './catalog';

const row = (date: string, balanceCents: number): LedgerEntry => ({
  id: 0,
  date,
  code: null,
  company: null,
  description: null,
  typeId: 1,
  typeName: 'Expense',
  signedCents: 0,
  balanceCents,
});

describe('depletions', () => {
  it('finds none for an account without an initial balance or one that never reaches zero', () => {
    expect(depletions(null, [row('2025-01-01', -5)])).toEqual([]);
    expect(depletions(1000, [row('2025-01-01', 500), row('2025-02-01', 1)])).toEqual([]);
  });

  it('calls a depletion that is funded again temporary and the last one that stays permanent', () => {
    expect(depletions(1000, [row('2025-01-05', 0), row('2025-02-01', 300), row('2025-03-09', -20), row('2025-04-01', -50)])).toEqual([
      { typeId: 3, periodKey: '2025-01-05', effectiveDate: '2025-01-05' },
      { typeId: 4, periodKey: '2025-03-09', effectiveDate: '2025-03-09' },
    ]);
  });

  it("plans one letter a day, the day's last fall deciding: funded again the same day is temporary, emptied again and left so is permanent", () => {
    // Emptied and funded again on 04-02: one temporary letter, not a permanent one beside it.
    expect(depletions(8500, [row('2025-04-02', -11500), row('2025-04-02', 38500)])).toEqual([
      { typeId: 3, periodKey: '2025-04-02', effectiveDate: '2025-04-02' },
    ]);
    // Emptied, funded, emptied again on 05-01 and never funded after: one permanent letter.
    expect(depletions(1000, [row('2025-05-01', -100), row('2025-05-01', 200), row('2025-05-01', -50), row('2025-06-01', -60)])).toEqual([
      { typeId: 4, periodKey: '2025-05-01', effectiveDate: '2025-05-01' },
    ]);
  });
});
