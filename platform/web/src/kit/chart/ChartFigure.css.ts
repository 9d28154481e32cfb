import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const figure = style({
  margin: 0,
  padding: vars.space.medium,
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.small,
  minWidth: 0,
});
export const header = style({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: vars.space.small, flexWrap: 'wrap' });
export const title = style({ margin: 0, fontSize: '1.1rem' });
export const summary = style({ margin: 0, color: vars.color.foreground.muted, minHeight: '2.6em' });
/** The plot's box has the chart's height whether it shows the chart, its empty frame or the table. */
export const plot = style({ position: 'relative', overflow: 'auto' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontVariantNumeric: 'tabular-nums' });
export const cell = style({ textAlign: 'left', padding: `${vars.space.xsmall} ${vars.space.small}`, borderBottom: `1px solid ${vars.color.border.standard}` });
export const num = style([cell, { textAlign: 'right' }]);
export const emptyFrame = style({ width: '100%' });
/** A series with no points: the frame keeps the chart's height and says there is nothing to draw. */
export const nothing = style({
  margin: 0,
  height: '100%',
  display: 'grid',
  placeItems: 'center',
  textAlign: 'center',
  color: vars.color.foreground.muted,
  border: `1px dashed ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
});
/** A responsive grid of charts: as many 30rem columns as fit. */
export const chartGrid = style({ display: 'grid', gap: vars.space.medium, gridTemplateColumns: fluidColumns('30rem') });
