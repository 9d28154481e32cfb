import { describe, expect, it } from 'vitest';
import { carryForward, peak, periodLabel } from './series';

describe('carryForward', () => {
  it('carries the last non-zero balance over months with 0', () => {
    const months = [
      { Date: '2026-01-01', Balance: 0 },
      { Date: '2026-02-01', Balance: 120.5 },
      { Date: '2026-03-01', Balance: 0 },
      { Date: '2026-04-01', Balance: 0 },
      { Date: '2026-05-01', Balance: -20 },
      { Date: '2026-06-01', Balance: 0 },
    ];
    expect(carryForward(months).map((p) => p.Balance)).toEqual([0, 120.5, 120.5, 120.5, -20, -20]);
    expect(months[2]?.Balance).toBe(0);
  });
  it('leaves an empty series and all-zero series alone', () => {
    expect(carryForward([])).toEqual([]);
    expect(carryForward([{ Balance: 0 }, { Balance: 0 }])).toEqual([{ Balance: 0 }, { Balance: 0 }]);
  });
});

describe('periodLabel and peak', () => {
  it('labels days, months and quarters', () => {
    expect(periodLabel('2026-05-14', 'time')).toBe('2026-05-14');
    expect(periodLabel('2026-05-01', 'month')).toBe('2026-05');
    expect(periodLabel('2026-10-01', 'quarter')).toBe('2026 Q4');
    expect(periodLabel('2026-01-01', 'quarter')).toBe('2026 Q1');
  });
  it("words a quarter as the caller's label does (the web's, in the page language), leaving days and months alone", () => {
    const spanish = (year: string, quarter: number) => `${year} T${quarter}`;
    expect(periodLabel('2026-07-01', 'quarter', spanish)).toBe('2026 T3');
    expect(periodLabel('2026-12-31', 'quarter', spanish)).toBe('2026 T4');
    expect(periodLabel('2026-05-01', 'month', spanish)).toBe('2026-05');
  });
  it('finds the first largest point', () => {
    expect(peak([{ n: 1 }, { n: 3 }, { n: 3 }], (p) => p.n)).toEqual({ n: 3 });
    expect(peak([], (p: { n: number }) => p.n)).toBeNull();
  });
});
