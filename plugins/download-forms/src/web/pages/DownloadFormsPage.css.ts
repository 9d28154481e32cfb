import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const list = style({ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const item = style({
  display: 'flex',
  // On a phone the button goes under the form's text instead of past the screen's edge.
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: vars.space.medium,
  padding: vars.space.medium,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
});
export const text = style({ margin: `${vars.space.xsmall} 0 0`, color: vars.color.foreground.muted });
