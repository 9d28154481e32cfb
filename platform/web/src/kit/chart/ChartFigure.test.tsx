import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ChartFigure } from './ChartFigure';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
// The styles are vanilla-extract's, compiled by the build: here each class is its own name.
vi.mock('./ChartFigure.css', () =>
  Object.fromEntries(['figure', 'header', 'title', 'summary', 'plot', 'table', 'cell', 'num', 'emptyFrame', 'nothing'].map((n) => [n, n])),
);
vi.mock('../visuallyHidden.css', () => ({ visuallyHidden: 'visuallyHidden' }));
vi.mock('./themeColours', () => ({ chartColours: () => ({}), gaugeColour: () => '#000' }));
vi.mock('../components/Button', () => ({ Button: ({ children }: { children: unknown }) => <button type="button">{children as string}</button> }));

const figure = (categories: string[], values: number[], kind: 'line' | 'gauge' = 'line') =>
  renderToString(
    <ChartFigure
      title="Balance by month"
      summary="No balance yet."
      kind={kind}
      columns={['Month', 'Balance']}
      categories={categories}
      values={values}
      money
      height={220}
    />,
  );

describe('a chart figure', () => {
  it('with no points says there is nothing to chart, at the chart height, with no table toggle and no drawing', () => {
    const html = figure([], []);
    expect(html).toContain('data-testid="chart-nothing"');
    expect(html).toContain('chart.nothing');
    expect(html).toContain('height:220px');
    expect(html).not.toContain('chart.showTable');
    expect(html).not.toContain('role="img"');
    expect(html).toContain('No balance yet.');
  });

  it('with points offers the table and reserves the drawing', () => {
    const html = figure(['Jan', 'Feb'], [1, 2]);
    expect(html).not.toContain('chart-nothing');
    expect(html).toContain('chart.showTable');
    expect(html).toContain('role="img"');
  });

  it('as a gauge always draws its one value', () => {
    const html = figure([], [40], 'gauge');
    expect(html).not.toContain('chart-nothing');
    expect(html).toContain('role="img"');
  });
});
