import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const header = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.large, alignItems: 'flex-end', marginBottom: vars.space.medium });
export const band = style({
  color: vars.color.foreground.onToolbar,
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  marginBottom: vars.space.medium,
});
export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });
export const input = style({
  font: 'inherit',
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  minWidth: 0,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
/** Around the kit's TableScroll (which scrolls the table sideways on a narrow screen). */
export const tableWrap = style({ marginTop: vars.space.medium });
export const table = style({ width: '100%', borderCollapse: 'collapse' });
export const cell = style({
  textAlign: 'left',
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  borderBottom: `1px solid ${vars.color.border.standard}`,
  verticalAlign: 'top',
});
export const numeric = style([cell, { textAlign: 'right', whiteSpace: 'nowrap' }]);
export const sortButton = style({ font: 'inherit', fontWeight: 600, background: 'none', border: 'none', padding: 0, cursor: 'pointer', color: 'inherit' });
export const actions = style({ display: 'flex', gap: vars.space.xsmall, flexWrap: 'wrap' });
export const pager = style({ display: 'flex', alignItems: 'center', gap: vars.space.medium, marginTop: vars.space.medium, flexWrap: 'wrap' });
export const muted = style({ color: vars.color.foreground.muted });
export const big = style({ fontSize: vars.font.size.large, fontWeight: 700, margin: 0 });
/** The balance line: its own height (it fits the dashboard's frame with the figures' toggle), stretched to the width. */
export const chart = style({ display: 'block', width: '100%', height: '8rem', overflow: 'visible' });
/** The chart beside its scale: the highest and lowest balance at the top and bottom of the line's range. */
export const chartArea = style({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: vars.space.small, alignItems: 'stretch' });
export const chartScale = style({
  display: 'flex',
  flexDirection: 'column',
  justifyContent: 'space-between',
  textAlign: 'end',
  fontSize: vars.font.size.small,
  color: vars.color.foreground.muted,
  fontVariantNumeric: 'tabular-nums',
});
/** The first and last month under the line. */
export const chartMonths = style({
  display: 'flex',
  justifyContent: 'space-between',
  fontSize: vars.font.size.small,
  color: vars.color.foreground.muted,
  margin: `${vars.space.xsmall} 0 ${vars.space.small}`,
});

/** The recent-transactions widget's table: fixed columns for the day and the amount; the company gives way (clip). */
export const recentTable = style({ tableLayout: 'fixed' });
export const recentDay = style({ width: '6.75rem' });
export const recentAmount = style({ width: '6.5rem' });

/** The text under a row's edit that says why its marked inputs are invalid (their aria-describedby). */
export const invalidText = style({ color: vars.color.foreground.critical, margin: 0 });
