/**
 * The pure parts of the A/B comparison of two builds (scripts/bench/ab.ts): the order of the loads and the figures
 * printed. No I/O here.
 */
import { mulberry32 } from '../lib/random';
import { median } from './lib';

/**
 * Which build each load pair starts with: A B, B A, B A, A B, A B ... (ABBA), so a slow spell of the machine, or a
 * drift over the run, falls on both builds alike instead of on whichever one came first or last.
 */
export const pairOrder = (i: number): ['A', 'B'] | ['B', 'A'] => (i % 4 === 0 || i % 4 === 3 ? ['A', 'B'] : ['B', 'A']);

export interface Comparison {
  a: { n: number; median: number };
  b: { n: number; median: number };
  /** median(B) − median(A). */
  difference: number;
  /** A 95% bootstrap interval of that difference (each build's samples resampled apart). */
  low: number;
  high: number;
  /** Whether the interval excludes zero: the builds differ by more than the run's noise. */
  clear: boolean;
}

/** Compares two builds' samples (ms): the medians, their difference and its 95% bootstrap interval. */
export function compare(a: readonly number[], b: readonly number[], resamples = 2000, seed = 1): Comparison {
  const xa = a.filter(Number.isFinite);
  const xb = b.filter(Number.isFinite);
  if (xa.length === 0 || xb.length === 0) throw new Error('compare needs samples of both builds');
  const next = mulberry32(seed);
  const draw = (xs: readonly number[]) => median(Array.from({ length: xs.length }, () => xs[Math.floor(next() * xs.length)] as number));
  const diffs = Array.from({ length: resamples }, () => draw(xb) - draw(xa)).sort((x, y) => x - y);
  const at = (q: number) => diffs[Math.min(diffs.length - 1, Math.max(0, Math.round(q * (diffs.length - 1))))] as number;
  const low = at(0.025);
  const high = at(0.975);
  return {
    a: { n: xa.length, median: median(xa) },
    b: { n: xb.length, median: median(xb) },
    difference: median(xb) - median(xa),
    low,
    high,
    clear: low > 0 || high < 0,
  };
}
