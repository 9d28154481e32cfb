import { describe, expect, it } from 'vitest';
import { monthLabel, peak, periodLabel, seriesViewer } from './series';

describe('monthLabel', () => {
  it("names a series' month in the page's language, and leaves anything else alone", () => {
    expect(monthLabel('2026-11-01', 'en-US')).toBe('Nov 2026');
    expect(monthLabel('2026-01-01', 'en-US')).toBe('Jan 2026');
    expect(monthLabel('2026-12-01', 'es-US')).toMatch(/^dic\.? 2026$/);
    expect(monthLabel('soon', 'en-US')).toBe('soon');
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

describe('seriesViewer: whose figures a title names', () => {
  it("names the member staff act for, a member's own, and nobody's in particular otherwise", () => {
    expect(seriesViewer(['SuperUser'], 42)).toEqual({ context: 'member', member: 42 });
    expect(seriesViewer(['CareSupport'], 7)).toEqual({ context: 'member', member: 7 });
    expect(seriesViewer(['CareGuardFinance'], 42)).toEqual({ context: 'own' });
    expect(seriesViewer(['CareGuard'], 3)).toEqual({ context: 'own' });
    expect(seriesViewer(['SuperUser'], null)).toEqual({});
    expect(seriesViewer(['CareGuard'], undefined)).toEqual({});
  });
});
