import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const list = style({ display: 'flex', flexDirection: 'column', gap: vars.space.small });
export const item = style({ border: `1px solid ${vars.color.border.standard}`, borderRadius: vars.radius.standard });
export const heading = style({ margin: 0, fontSize: vars.font.size.large });
export const trigger = style({
  width: '100%',
  textAlign: 'left',
  background: vars.color.background.surfaceRaised,
  border: 0,
  padding: vars.space.medium,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  color: vars.color.foreground.text,
  borderRadius: vars.radius.standard,
});
export const panel = style({ padding: `0 ${vars.space.medium}` });
export const contactTitle = style({ fontSize: vars.font.size.large, marginTop: vars.space.large });
