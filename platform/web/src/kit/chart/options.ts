import type { ApexOptions } from 'apexcharts';
import type { ChartColours } from './themeColours';

/** Chart animation (spec 02 section 9). */
export const CHART_ANIMATION_MS = 500;

const chartBase = {
  // Its style sheets come as files with the chart's code (./apexChart): written inline, the page's policy refuses them.
  injectStyleSheet: false,
  animations: { enabled: true, speed: CHART_ANIMATION_MS },
  toolbar: { show: false },
  zoom: { enabled: false },
  fontFamily: 'inherit',
  parentHeightOffset: 0,
} as const;

/** About how many steps a count axis has (fewer for small counts: one step per unit). */
const COUNT_STEPS = 5;

/** The smallest of 1, 2, 5, 10, 20, 50, 100… at or above `wanted`. */
function wholeStep(wanted: number): number {
  for (let power = 1; ; power *= 10) for (const m of [1, 2, 5]) if (m * power >= wanted) return m * power;
}

/**
 * The value axis of a count (claims, bills: whole numbers): from 0, in whole steps of 1, 2 or 5 times a power of ten,
 * up to the first step at or above the largest value. apexcharts' own scale (7.9) picks steps of 0.5 for small ranges
 * (labels '0, 1, 1, 2, 2' once rounded) and starts a line's axis at its lowest value (a 1 then sits on the bottom
 * line, read as 0); given its min, max and tickAmount it draws exactly these ticks. An all-zero series gets 0 to 1.
 */
export function countScale(values: readonly number[]): { min: 0; max: number; tickAmount: number } {
  const top = Math.max(0, ...values.filter((v) => Number.isFinite(v)));
  if (top === 0) return { min: 0, max: 1, tickAmount: 1 };
  const step = wholeStep(top / COUNT_STEPS);
  const max = Math.ceil(top / step) * step;
  return { min: 0, max, tickAmount: max / step };
}

/**
 * The options of a line, bar or ranking (horizontal bar) chart. A count's value axis is countScale's; money's is
 * apexcharts' own. The plot keeps a margin on its left, so the first label (a ranking's city, a rotated day) is not cut
 * at the chart's edge; a ranking's long names are cut with an ellipsis at 200 px (the table has them whole). A line's
 * rotated date labels keep to -45 degrees, and only when they do not fit upright.
 */
export function seriesOptions(
  kind: 'line' | 'bar' | 'ranking',
  categories: readonly string[],
  values: readonly number[],
  format: (v: number) => string,
  colours: ChartColours,
  money: boolean,
): ApexOptions {
  const count = money ? null : countScale(values);
  return {
    chart: chartBase,
    colors: [colours.series],
    dataLabels: { enabled: false },
    stroke: kind === 'line' ? { width: 2, curve: 'straight' } : { width: 0 },
    markers: { size: kind === 'line' && values.length < 40 ? 3 : 0 },
    plotOptions: { bar: { horizontal: kind === 'ranking', borderRadius: 2 } },
    xaxis: {
      categories: [...categories],
      labels: {
        hideOverlappingLabels: true,
        ...(kind === 'ranking' ? { formatter: (v: string) => format(Number(v)) } : { rotate: -45, rotateAlways: false }),
      },
      // A tick per category, unless there are too many to tell apart (a year of days drew a grey band).
      axisTicks: { show: categories.length <= 60 },
      // A ranking's value axis is its x axis.
      ...(kind === 'ranking' ? count : null),
      // Dates on a line's category axis: at most 12 labels; on a bar's, the bars' own unless there are many (a year
      // of days is 366 bars).
      tickAmount: kind === 'ranking' ? count?.tickAmount : kind === 'line' || categories.length > 24 ? Math.min(12, categories.length) : undefined,
    },
    yaxis: {
      ...(kind === 'ranking' ? null : count),
      // apexcharts cuts a label longer than maxWidth (a ranking's city) with an ellipsis.
      labels: { formatter: (v: number) => (kind === 'ranking' ? String(v) : format(v)), maxWidth: 200 },
    },
    tooltip: { y: { formatter: (v: number) => format(v) } },
    grid: { borderColor: colours.grid, padding: { left: 16, right: 8 } },
  };
}

/** The gauge's options; `bandColour` is the colour of the band its value is in. */
export function gaugeOptions(format: (v: number) => string, colours: ChartColours, bandColour: string): ApexOptions {
  return {
    chart: chartBase,
    colors: [bandColour],
    plotOptions: {
      radialBar: {
        startAngle: -120,
        endAngle: 120,
        hollow: { size: '58%' },
        track: { background: colours.track },
        dataLabels: { name: { show: false }, value: { fontSize: '1.6rem', offsetY: 8, formatter: (v: number) => format(v) } },
      },
    },
    stroke: { lineCap: 'round' },
  };
}
