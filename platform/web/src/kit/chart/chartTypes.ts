/**
 * The apexcharts chart type each of ChartFigure's kinds draws with. ./apexChart registers exactly these types with
 * apexcharts' core (apexChart.test.ts checks it), so a kind added here without its registration fails a test
 * instead of drawing nothing in the browser.
 */
export const APEX_CHART_TYPE = {
  line: 'line',
  bar: 'bar',
  ranking: 'bar',
  gauge: 'radialBar',
} as const;

export type ChartKind = keyof typeof APEX_CHART_TYPE;

/** apexcharts features the kit's charts use beyond the core: the legend, and keyboard navigation of the data. */
export const APEX_FEATURES = ['legend', 'keyboardNavigation'] as const;
