import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const box = style({ position: 'relative', display: 'flex', alignItems: 'center' });
export const input = style({
  font: 'inherit',
  width: '14rem',
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.field}`,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
export const popover = style({
  minWidth: '20rem',
  maxHeight: '24rem',
  overflow: 'auto',
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  boxShadow: vars.shadow.raised,
});
export const listBox = style({ outline: 'none', padding: vars.space.xsmall });
export const header = style({
  fontSize: vars.font.size.small,
  fontWeight: 700,
  color: vars.color.foreground.muted,
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  textTransform: 'uppercase',
});
export const item = style({
  display: 'flex',
  flexDirection: 'column',
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  borderRadius: vars.radius.standard,
  cursor: 'pointer',
  outline: 'none',
  selectors: { '&[data-focused]': { background: vars.color.background.brandAccent, color: vars.color.foreground.onBrandAccent } },
});
export const detail = style({ fontSize: vars.font.size.small, opacity: 0.85 });
export const status = style({ padding: vars.space.small, fontSize: vars.font.size.small });
