import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const popover = style({
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  boxShadow: vars.shadow.raised,
  overflow: 'auto',
});

export const menu = style({ minWidth: '220px', padding: vars.space.xsmall, outline: 'none', fontFamily: vars.font.body });

export const item = style({
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  color: vars.color.foreground.text,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    // The focused item on the accent in the accent's text colour, as a list box's option: the raised surface it had
    // was about 1.05:1 against the menu, so a keyboard user could not see where they were.
    '&[data-focused]': { background: vars.color.background.formAccent, color: vars.color.foreground.onBrandAccent },
    '&[data-disabled]': { color: vars.color.foreground.muted, cursor: 'default' },
  },
});
