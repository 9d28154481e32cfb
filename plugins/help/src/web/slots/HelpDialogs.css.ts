import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const trigger = style({
  font: 'inherit',
  padding: `${vars.space.xsmall} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.field}`,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  cursor: 'pointer',
});
export const popover = style({
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  boxShadow: vars.shadow.raised,
});
export const menu = style({ padding: vars.space.xsmall, outline: 'none', minWidth: '220px' });
export const item = style({
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  cursor: 'pointer',
  outline: 'none',
  selectors: { '&[data-focused]': { background: vars.color.background.surfaceRaised } },
});
export const overlay = style({ position: 'fixed', inset: 0, background: 'rgba(16, 24, 40, 0.45)', display: 'grid', placeItems: 'center', zIndex: 900 });
export const modal = style({
  background: vars.color.background.surface,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.raised,
  maxWidth: 'min(560px, 92vw)',
});
export const dialog = style({ padding: vars.space.large, outline: 'none' });
