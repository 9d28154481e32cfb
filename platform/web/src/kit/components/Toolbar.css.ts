import { vars } from '@portal/themes';
import { style, styleVariants } from '@vanilla-extract/css';

export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.small,
  selectors: { '&[data-orientation="vertical"]': { flexDirection: 'column', alignItems: 'stretch', flexWrap: 'nowrap' } },
});

/** Keyed by the line's own direction: vertical between the buttons of a horizontal toolbar. */
export const separator = styleVariants({
  vertical: { alignSelf: 'stretch', width: '1px', margin: `0 ${vars.space.xsmall}`, border: 0, background: vars.color.border.standard },
  horizontal: { alignSelf: 'stretch', height: '1px', margin: `${vars.space.xsmall} 0`, border: 0, background: vars.color.border.standard },
});
