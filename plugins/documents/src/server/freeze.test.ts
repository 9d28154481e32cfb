import type { LedgerEntry } from '@portal/plugin-ledger/service';
import { describe, expect, it } from 'vitest';
import { snapshotOf } from './freeze';

/** Ledger rows as `ledgerService.period(member, null, …)` answers them: date order, running balance from `initial`. */
function ledger(initial: number, rows: [id: number, date: string, signedCents: number][]): LedgerEntry[] {
  let balance = initial;
  return rows.map(([id, date, signedCents]) => {
    balance += signedCents;
    return {
      id,
      date,
      code: null,
      company: 'Co',
      description: `row ${id}`,
      typeId: signedCents < 0 ? 1 : 2,
      typeName: signedCents < 0 ? 'Expense' : 'Deposit',
      signedCents,
      balanceCents: balance,
    };
  });
}
const basisOf = (initialCents: number | null, rows: LedgerEntry[]) => ({ initialCents, rows: new Map(rows.map((r) => [r.id, r])) });

describe('snapshotOf', () => {
  it("starts a chain at the ledger's balance, counting the rows dated before the period", () => {
    const s = snapshotOf(
      '2025-03',
      '2025-04-02',
      1000,
      ledger(1000, [
        [1, '2025-02-10', -100],
        [2, '2025-03-05', 50],
      ]),
      null,
    );
    expect(s).toMatchObject({ openingCents: 900, closingCents: 950, adjustments: [] });
    expect(s.carried?.map((r) => r.id)).toEqual([1]);
    expect(s.rows.map((r) => [r.id, r.balanceCents])).toEqual([[2, 950]]);
  });

  it("opens at the previous closing and lists every change to earlier periods; closes at the ledger's balance", () => {
    // What the earlier statements counted: initial $10.00, row 1 -$1.00 (Feb), row 2 +$0.50 (Mar), row 3 -$0.20 (Mar).
    const before = basisOf(
      1000,
      ledger(1000, [
        [1, '2025-02-10', -100],
        [2, '2025-03-05', 50],
        [3, '2025-03-20', -20],
      ]),
    );
    // Now: the initial balance is $12.00, row 1 is -$1.50, row 2 moved into April, row 3 deleted, row 4 back-dated to
    // February, row 5 in April.
    const now = ledger(1200, [
      [1, '2025-02-10', -150],
      [4, '2025-02-15', -30],
      [2, '2025-04-02', 50],
      [5, '2025-04-09', 10],
    ]);
    const s = snapshotOf('2025-04', '2025-05-01', 1200, now, before);
    expect(s.openingCents).toBe(930);
    expect(s.adjustments.map((a) => [a.kind, a.date, a.cents, a.wasCents])).toEqual([
      ['initial', null, 200, 1000],
      ['changed', '2025-02-10', -50, -100],
      ['added', '2025-02-15', -30, null],
      ['moved', '2025-03-05', -50, 50],
      ['removed', '2025-03-20', 20, -20],
    ]);
    expect(s.rows.map((r) => [r.id, r.balanceCents])).toEqual([
      [2, 1070],
      [5, 1080],
    ]);
    expect(s.adjustments[3]?.movedTo).toBe('2025-04-02');
    expect(s.closingCents).toBe(now.at(-1)?.balanceCents);
    expect(s.carried).toBeUndefined();
  });
});
