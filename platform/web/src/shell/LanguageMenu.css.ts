import { vars, visuallyHiddenRule } from '@portal/themes';
import { style } from '@vanilla-extract/css';

/** On the toolbar and on the login header alike: it takes the colour of the bar it sits on. */
export const trigger = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xsmall,
  minWidth: '7.5rem',
  justifyContent: 'space-between',
  background: 'transparent',
  color: 'inherit',
  border: '1px solid currentColor',
  borderRadius: vars.radius.standard,
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  font: 'inherit',
  fontSize: vars.font.size.small,
  lineHeight: 1.5,
  cursor: 'pointer',
  selectors: { '&[data-hovered]': { background: 'rgba(255,255,255,0.14)' }, '&[data-pressed]': { background: 'rgba(0,0,0,0.2)' } },
});
/**
 * The label is for assistive technology: the menu shows the language's own name. A class of its own (the kit's rule):
 * the kit's `visuallyHidden` would be one more chunk for the sign-in page to load.
 */
export const hiddenLabel = style(visuallyHiddenRule);
