import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const root = style({ display: 'flex', flexDirection: 'column', gap: vars.space.small, fontFamily: vars.font.body, color: vars.color.foreground.text });

export const toolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: vars.space.small });

export const spacer = style({ flex: 1 });

export const scroller = style({
  overflow: 'auto',
  // No scroll anchoring: a windowed grid reuses its row elements and resizes its spacers on every scroll, and the
  // browser's anchoring would answer each change with another scroll (a runaway loop).
  overflowAnchor: 'none',
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
});

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.font.size.standard });

/** The whole head sticks (not each cell): sticky cells of the filter row would pile onto the header row. */
export const head = style({ position: 'sticky', top: 0, zIndex: 1 });

export const headerCell = style({
  textAlign: 'start',
  background: vars.color.background.surfaceRaised,
  borderBottom: `1px solid ${vars.color.border.standard}`,
  padding: vars.space.small,
  fontWeight: 600,
  whiteSpace: 'nowrap',
});

export const cell = style({
  padding: vars.space.small,
  borderBottom: `1px solid ${vars.color.border.standard}`,
  outline: 'none',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '-2px' } },
});

export const cellEnd = style({ textAlign: 'end' });
export const cellCenter = style({ textAlign: 'center' });

export const row = style({
  selectors: {
    '&[aria-selected="true"]': { background: vars.color.background.formAccent, color: vars.color.foreground.onBrandAccent },
  },
});

export const busy = style({ opacity: 0.6 });

export const sortButton = style({
  all: 'unset',
  cursor: 'pointer',
  display: 'inline-flex',
  gap: vars.space.xsmall,
  alignItems: 'center',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.border.focus}` } },
});

export const filterInput = style({
  width: '100%',
  boxSizing: 'border-box',
  fontFamily: vars.font.body,
  fontSize: vars.font.size.small,
  color: vars.color.foreground.text,
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  padding: vars.space.xsmall,
});

export const message = style({ padding: vars.space.large, textAlign: 'center', color: vars.color.foreground.muted });

export const errorMessage = style([message, { color: vars.color.foreground.critical }]);

export const expanded = style({ padding: vars.space.medium, background: vars.color.background.body, borderBottom: `1px solid ${vars.color.border.standard}` });

export const pager = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.small, fontSize: vars.font.size.small });

export const selectionBar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.small, fontSize: vars.font.size.small });

export const pageSizeSelect = style([filterInput, { width: 'auto' }]);
