import { fluidColumns, vars } from '@portal/themes';
import { globalStyle, keyframes, style } from '@vanilla-extract/css';

/** Every frame has a fixed height: the page lays out once, before any widget's code or data arrives (no shift). */
export const FRAME_HEIGHT = '19rem';

export const grid = style({
  display: 'grid',
  gridTemplateColumns: fluidColumns('20rem'),
  gap: vars.space.medium,
  alignItems: 'start',
});
/** The one hint for staff acting for nobody: a row of its own across the grid, above the widgets. */
export const dashboardHint = style({ gridColumn: '1 / -1', margin: 0 });
export const frame = style({
  height: FRAME_HEIGHT,
  display: 'flex',
  flexDirection: 'column',
  overflow: 'hidden',
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  contain: 'layout paint',
});
export const wide = style({ '@media': { 'screen and (min-width: 44rem)': { gridColumn: 'span 2' } } });
export const frameTitle = style({
  flex: '0 0 2.75rem',
  height: '2.75rem',
  margin: 0,
  padding: `0 ${vars.space.medium}`,
  fontSize: '1.05rem',
  lineHeight: '2.75rem',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  borderBottom: `1px solid ${vars.color.border.standard}`,
});
export const frameBody = style({ flex: '1 1 auto', minHeight: 0, overflow: 'auto', padding: vars.space.medium });

const pulse = keyframes({ '0%': { opacity: 0.45 }, '50%': { opacity: 0.8 }, '100%': { opacity: 0.45 } });
/** Placeholder lines while a widget's code or data loads: the same box, so nothing moves when it fills in. */
export const skeleton = style({ display: 'flex', flexDirection: 'column', gap: vars.space.small });
export const skeletonLine = style({
  height: '1rem',
  borderRadius: vars.radius.standard,
  background: vars.color.border.standard,
  '@media': { '(prefers-reduced-motion: no-preference)': { animation: `${pulse} 1.6s ease-in-out infinite` } },
});

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.small });
export const muted = style({ color: vars.color.foreground.muted, fontSize: '0.9rem' });
export const big = style({ fontSize: '1.6rem', fontWeight: 600, margin: `${vars.space.small} 0` });
globalStyle(`${list} a`, { color: vars.color.foreground.link });

/** A chart's frame while its data loads: the same border and padding as the kit's ChartFigure. */
export const chartPlaceholder = style({
  padding: vars.space.medium,
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  boxSizing: 'border-box',
});

/** A group of /trend charts: its reserved height keeps the page from shifting while the group loads. */
export const trendGroup = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const trendPage = style({ display: 'flex', flexDirection: 'column', gap: vars.space.large });
