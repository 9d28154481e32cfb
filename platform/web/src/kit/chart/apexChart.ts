/**
 * react-apexcharts on apexcharts' core with just what the kit's charts draw (ChartFigure): the line, bar (upright and
 * ranking) and radial bar (the gauge) chart types, the legend and keyboard navigation. The full `apexcharts` entry
 * adds every other chart type and the toolbar, zoom, exports, annotations, drill-down and theming features, which
 * the kit switches off or never uses; that entry more than doubled this chunk (docs/PERFORMANCE.md). A chart type
 * or feature the kit starts to use is added here: apexcharts warns in the console when a chart asks for one that is
 * not registered, and kit/chart/apexChart.test.ts checks the registrations against ChartFigure's kinds.
 *
 * apexcharts' own style sheets come as files of the build. apexcharts would otherwise write them into `<style>`
 * elements (its stylesheet on the first chart, the legend's in every chart), which the sites' policy refuses
 * (`style-src 'self'`, docs/SECURITY.md): tooltips, legends and labels went unstyled. The charts are drawn with
 * `injectStyleSheet: false` (ChartFigure), and these load with this chunk, never with the entry.
 */
import 'apexcharts/dist/apexcharts.css';
import 'apexcharts/dist/apexcharts-legend.css';
import 'apexcharts/line';
import 'apexcharts/bar';
import 'apexcharts/radialBar';
import 'apexcharts/features/legend';
import 'apexcharts/features/keyboard';

export { default } from 'react-apexcharts/core';
