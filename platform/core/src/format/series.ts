/**
 * The balance chart carries the last non-zero balance forward over months whose balance is 0 (spec 02 section 9):
 * a month with no activity reports 0, which is not the account's balance. Leading zeros (before any balance) stay.
 */
export function carryForward<T extends { Balance: number }>(points: readonly T[]): T[] {
  let last = 0;
  return points.map((p) => {
    if (p.Balance !== 0) {
      last = p.Balance;
      return p;
    }
    return last === 0 ? p : { ...p, Balance: last };
  });
}

/** How a quarter reads: its year ('2026') and number (1-4). */
export type QuarterLabel = (year: string, quarter: number) => string;
const englishQuarter: QuarterLabel = (year, quarter) => `${year} Q${quarter}`;

/**
 * A chart's x labels from its dates: 'YYYY-MM-DD' for days, 'YYYY-MM' for months, 'YYYY Qn' for quarters. The web
 * words the quarter in the page's language (the kit's chart.quarter, through usePeriodLabel); the dates stay the wire's.
 */
export function periodLabel(date: string, period: 'time' | 'quarter' | 'month', quarterLabel: QuarterLabel = englishQuarter): string {
  if (period === 'time') return date;
  const [y = '', m] = date.split('-');
  if (period === 'month') return `${y}-${m}`;
  return quarterLabel(y, Math.floor((Number(m) - 1) / 3) + 1);
}

/** The largest point of a series (first of equals), or null when empty. */
export function peak<T>(points: readonly T[], value: (p: T) => number): T | null {
  let best: T | null = null;
  for (const p of points) if (best === null || value(p) > value(best)) best = p;
  return best;
}
