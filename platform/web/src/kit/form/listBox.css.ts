import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

/**
 * A select's list: its popover, the list and each option. One look for every react-aria list of choices of the
 * product: the kit's SelectField and the grid's column menu, the language select and pages' own selects (exported
 * from the kit as `listBoxStyles`). The date picker's calendar opens in the same popover.
 */
export const popover = style({
  background: vars.color.background.surfaceRaised,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  boxShadow: vars.shadow.raised,
  padding: vars.space.xsmall,
  overflow: 'auto',
  // At least as wide as the button that opened it (react-aria sets the variable on the popover).
  minWidth: 'var(--trigger-width)',
});

export const listBox = style({ outline: 'none', display: 'flex', flexDirection: 'column' });

export const option = style({
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  borderRadius: vars.radius.standard,
  color: vars.color.foreground.text,
  cursor: 'default',
  outline: 'none',
  selectors: {
    // The focused option on the accent in the accent's text colour (the page's text on it was 1.4:1 to 2.4:1).
    '&[data-focused]': { background: vars.color.background.formAccent, color: vars.color.foreground.onBrandAccent },
    '&[data-selected]': { fontWeight: 600 },
  },
});
