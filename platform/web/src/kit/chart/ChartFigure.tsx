import { formatCurrency, formatLocale } from '@portal/core';
import type { ApexOptions } from 'apexcharts';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { visuallyHidden } from '../visuallyHidden.css';
import * as css from './ChartFigure.css';
import { APEX_CHART_TYPE, type ChartKind } from './chartTypes';
import { drawTurns } from './drawTurns';
import { gaugeBand } from './gauge';
import { gaugeOptions, seriesOptions } from './options';
import { chartColours, gaugeColour } from './themeColours';

export { CHART_ANIMATION_MS } from './options';

/**
 * apexcharts (its core with the kit's chart types, about 200 KiB gzipped: ./apexChart) loads with the first chart
 * drawn, never with the entry or the sign-in page.
 */
const loadChart = () => import('./apexChart');
const ApexChart = lazy(loadChart);

/** The page's charts take turns to be drawn, one per task (./drawTurns). */
const turns = drawTurns();

/**
 * Whether this figure's chart may be drawn now, and the function that ends its turn. The turn is asked for when the
 * figure mounts (the chart's code starts loading then too) and given up when it unmounts; once given, it stays. A
 * figure showing its table (`drawing` false) when its turn comes, or while it holds it, has nothing to draw and ends
 * it at once, so the charts after it are not held back.
 */
function useDrawTurn(drawing: boolean): [boolean, () => void] {
  const [mayDraw, setMayDraw] = useState(false);
  const end = useRef(() => {});
  useEffect(() => {
    void loadChart().catch(() => {});
    end.current = turns.request(() => setMayDraw(true));
    return () => end.current();
  }, []);
  useEffect(() => {
    if (mayDraw && !drawing) end.current();
  }, [mayDraw, drawing]);
  // One function for the figure's life: AfterDrawing's effect runs once after the drawing, not after every render.
  const endTurn = useCallback(() => end.current(), []);
  return [mayDraw, endTurn];
}

/** Mounts after the chart beside it, in the same commit: its effect runs once the chart's own (the drawing) has run. */
function AfterDrawing({ then }: { then: () => void }) {
  useEffect(() => then(), [then]);
  return null;
}

export interface ChartFigureProps {
  title: string;
  /** One or two sentences saying what the chart shows; also the chart's accessible name. */
  summary: string;
  /** 'gauge' draws values[0] (a percentage, 0-100) on a dial banded 0-40, 40-80, 80-100. */
  kind: ChartKind;
  /** Column headers of the table view: the category, then the value. */
  columns: [string, string];
  categories: readonly string[];
  values: readonly number[];
  /** The values are dollars: the axis, tooltip and table show them as money. */
  money?: boolean;
  height?: number;
  testId?: string;
}

/** A chart with its title, a text summary and a "show as table" toggle with the same numbers. */
export function ChartFigure({ title, summary, kind, columns, categories, values, money = false, height = 280, testId }: ChartFigureProps) {
  const { t } = useTranslation('kit');
  const [asTable, setAsTable] = useState(false);
  // A series with no points has nothing to draw or tabulate: no empty axes (apexcharts would scale them $0-$6) and no
  // empty table, but the frame at the chart's height saying so, beside the summary that says why.
  const nothing = kind !== 'gauge' && categories.length === 0;
  const [mayDraw, endTurn] = useDrawTurn(!asTable && !nothing);
  // The chart's frame, the height it will take, while its code loads or it waits for its turn.
  const emptyFrame = <div className={css.emptyFrame} style={{ height }} />;
  const titleId = useId();
  // The brand theme's colours (the themes set them on the page's root), as the literals apexcharts needs.
  const colours = chartColours();
  const format = (v: number) => (kind === 'gauge' ? `${Math.round(v)}%` : money ? formatCurrency(v) : Math.round(v).toLocaleString(formatLocale()));
  const drawn: ApexOptions =
    kind === 'gauge' ? gaugeOptions(format, colours, gaugeColour(gaugeBand(values[0] ?? 0))) : seriesOptions(kind, categories, values, format, colours, money);
  // apexcharts names its drawing in English ("line chart with 1 data series: ...") unless told: it is the chart's title
  // (the summary is already the accessible name of the picture around it).
  const options: ApexOptions = { ...drawn, chart: { ...drawn.chart, accessibility: { description: title } } };
  return (
    <figure className={css.figure} aria-labelledby={titleId} data-testid={testId}>
      <div className={css.header}>
        <h2 id={titleId} className={css.title}>
          {title}
        </h2>
        {!nothing && (
          <Button size="small" onPress={() => setAsTable((v) => !v)}>
            {asTable ? t('chart.showChart') : t('chart.showTable')}
          </Button>
        )}
      </div>
      <p className={css.summary}>{summary}</p>
      {/* The table may scroll within the chart's height: it then takes keyboard focus so it can be scrolled by keyboard. */}
      <div className={css.plot} style={{ height }} {...(asTable && !nothing ? { tabIndex: 0, role: 'region', 'aria-labelledby': titleId } : {})}>
        {nothing ? (
          <p className={css.nothing} data-testid="chart-nothing">
            {t('chart.nothing')}
          </p>
        ) : asTable ? (
          <table className={css.table}>
            <caption className={visuallyHidden}>{title}</caption>
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {columns[0]}
                </th>
                <th scope="col" className={css.num}>
                  {columns[1]}
                </th>
              </tr>
            </thead>
            <tbody>
              {categories.map((c, i) => (
                <tr key={c}>
                  <th scope="row" className={css.cell}>
                    {c}
                  </th>
                  <td className={css.num}>{format(values[i] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <div role="img" aria-label={summary}>
            <Suspense fallback={emptyFrame}>
              {!mayDraw ? (
                emptyFrame
              ) : (
                <>
                  {kind === 'gauge' ? (
                    <ApexChart type={APEX_CHART_TYPE.gauge} height={height} options={options} series={[Math.min(100, Math.max(0, values[0] ?? 0))]} />
                  ) : (
                    <ApexChart type={APEX_CHART_TYPE[kind]} height={height} options={options} series={[{ name: columns[1], data: [...values] }]} />
                  )}
                  <AfterDrawing then={endTurn} />
                </>
              )}
            </Suspense>
          </div>
        )}
      </div>
    </figure>
  );
}
