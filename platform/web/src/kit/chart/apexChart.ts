/**
 * react-apexcharts with apexcharts' own style sheets as files of the build. apexcharts would otherwise write them into
 * `<style>` elements (its stylesheet on the first chart, the legend's in every chart), which the sites' policy refuses
 * (`style-src 'self'`, docs/SECURITY.md): tooltips, legends and labels went unstyled. The charts are drawn with
 * `injectStyleSheet: false` (ChartFigure), and these load with this chunk, never with the entry.
 */
import 'apexcharts/dist/apexcharts.css';
import 'apexcharts/dist/apexcharts-legend.css';

export { default } from 'react-apexcharts';
