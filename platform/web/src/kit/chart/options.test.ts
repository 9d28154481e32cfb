import { describe, expect, it } from 'vitest';
import { countScale, seriesOptions } from './options';
import type { ChartColours } from './themeColours';

const colours: ChartColours = { series: '#003366', grid: '#cccccc', track: '#eeeeee' };
const format = (v: number) => String(Math.round(v));

/** The ticks apexcharts draws for min, max and tickAmount: min, then tickAmount equal steps up to max. */
const ticks = ({ min, max, tickAmount }: { min: number; max: number; tickAmount: number }) =>
  Array.from({ length: tickAmount + 1 }, (_, i) => min + ((max - min) * i) / tickAmount);

describe('countScale: whole ticks from 0 on a count axis', () => {
  it('steps by 1 for small counts, so no label repeats and a 1 is never on the bottom line', () => {
    expect(countScale([1, 2, 1, 1])).toEqual({ min: 0, max: 2, tickAmount: 2 });
    expect(ticks(countScale([1, 2, 1, 1]))).toEqual([0, 1, 2]);
    expect(ticks(countScale([3, 4, 2]))).toEqual([0, 1, 2, 3, 4]);
    expect(ticks(countScale([5]))).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it('steps by 1, 2 or 5 times a power of ten for larger counts, ending at or above the largest', () => {
    expect(ticks(countScale([7]))).toEqual([0, 2, 4, 6, 8]);
    expect(ticks(countScale([93, 2]))).toEqual([0, 20, 40, 60, 80, 100]);
    expect(ticks(countScale([861]))).toEqual([0, 200, 400, 600, 800, 1000]);
    for (const top of [1, 3, 6, 11, 19, 24, 49, 101, 999, 12_345]) {
      const scale = countScale([top]);
      expect(scale.max).toBeGreaterThanOrEqual(top);
      expect(ticks(scale).every((t) => Number.isInteger(t))).toBe(true);
      expect(scale.tickAmount).toBeLessThanOrEqual(10);
    }
  });
  it('draws an all-zero or empty series on 0 to 1', () => {
    expect(countScale([0, 0, 0])).toEqual({ min: 0, max: 1, tickAmount: 1 });
    expect(countScale([])).toEqual({ min: 0, max: 1, tickAmount: 1 });
  });
});

describe('seriesOptions', () => {
  it("puts a count line's scale on its y axis, from 0", () => {
    const o = seriesOptions('line', ['2026-11', '2026-12'], [1, 2], format, colours, false);
    expect(o.yaxis).toMatchObject({ min: 0, max: 2, tickAmount: 2 });
  });
  it("puts a ranking's scale on its value axis (the x axis of a horizontal bar), its names cut at 200 px", () => {
    const o = seriesOptions('ranking', ['Baton Rouge, LA', 'Austin, TX'], [4, 3], format, colours, false);
    expect(o.xaxis).toMatchObject({ min: 0, max: 4, tickAmount: 4 });
    expect(o.yaxis).toMatchObject({ labels: { maxWidth: 200 } });
    expect(o.yaxis).not.toHaveProperty('min');
  });
  it("leaves a money axis to apexcharts' own scale", () => {
    const o = seriesOptions('bar', ['2026-11'], [12.5], format, colours, true);
    expect(o.yaxis).not.toHaveProperty('min');
    expect(o.yaxis).not.toHaveProperty('tickAmount');
  });
  it('keeps a margin on the left, so the first label is not cut at the edge', () => {
    const o = seriesOptions('ranking', ['Baton Rouge, LA'], [1], format, colours, false);
    expect(o.grid?.padding?.left).toBeGreaterThanOrEqual(8);
  });
  it('labels at most 12 dates on a long axis', () => {
    const days = Array.from({ length: 366 }, (_, i) => `d${i}`);
    expect(
      seriesOptions(
        'line',
        days,
        days.map(() => 0),
        format,
        colours,
        false,
      ).xaxis?.tickAmount,
    ).toBe(12);
    expect(
      seriesOptions(
        'bar',
        days,
        days.map(() => 0),
        format,
        colours,
        true,
      ).xaxis?.tickAmount,
    ).toBe(12);
    expect(seriesOptions('bar', days.slice(0, 8), [0, 0, 0, 0, 0, 0, 0, 0], format, colours, true).xaxis?.tickAmount).toBeUndefined();
    expect(
      seriesOptions(
        'bar',
        days,
        days.map(() => 0),
        format,
        colours,
        true,
      ).xaxis?.axisTicks?.show,
    ).toBe(false);
    expect(seriesOptions('line', days.slice(0, 24), Array(24).fill(1), format, colours, false).xaxis?.axisTicks?.show).toBe(true);
  });
});
