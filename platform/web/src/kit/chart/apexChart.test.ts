import { describe, expect, it } from 'vitest';
import { APEX_CHART_TYPE, APEX_FEATURES } from './chartTypes';

/** apexcharts' core as its chart type and feature entries see it: where they register themselves. */
interface ApexCore {
  __apex_ChartFactory_getChartClass(type: string): unknown;
  __apex_helpers_InitCtxVariables: { _featureRegistry: Map<string, unknown> };
}

describe("the kit's charts module: apexcharts' core with the kit's chart types and features", () => {
  it('registers a chart class for every apexcharts type ChartFigure draws, and every feature the kit uses', async () => {
    const core = (await import('apexcharts/core')) as unknown as ApexCore;
    const registered = () => new Set(APEX_FEATURES.filter((f) => core.__apex_helpers_InitCtxVariables._featureRegistry.has(f)));
    // The core alone knows none of them: what passes below is the chart module's doing.
    expect(() => core.__apex_ChartFactory_getChartClass(APEX_CHART_TYPE.gauge)).toThrow(/not registered/);
    expect(registered().size).toBe(0);

    const chart = await import('./apexChart');
    expect(typeof chart.default).toBe('function');
    for (const type of new Set(Object.values(APEX_CHART_TYPE))) expect(core.__apex_ChartFactory_getChartClass(type), type).toBeTypeOf('function');
    expect([...registered()]).toEqual([...APEX_FEATURES]);
  });

  it("leaves out the full build's other chart types and features, which the kit never draws", async () => {
    const core = (await import('apexcharts/core')) as unknown as ApexCore;
    await import('./apexChart');
    for (const type of ['pie', 'donut', 'heatmap', 'treemap', 'candlestick', 'boxPlot'])
      expect(() => core.__apex_ChartFactory_getChartClass(type), type).toThrow(/not registered/);
    for (const feature of ['toolbar', 'exports', 'annotations', 'drilldown'])
      expect(core.__apex_helpers_InitCtxVariables._featureRegistry.has(feature), feature).toBe(false);
  });
});
