import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

// One column no wider than the screen (an auto column grows to its content's widest row).
export const page = style({ minHeight: '100vh', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', placeItems: 'center', padding: vars.space.large });
export const panel = style({
  width: 'min(420px, 100%)',
  background: vars.color.background.surface,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.raised,
  border: `1px solid ${vars.color.border.standard}`,
  overflow: 'hidden',
});
// Its focus ring (the language menu's button) in the header's text colour: the brand's focus colour is the header's own.
export const header = style({
  background: vars.color.background.brandAccent,
  color: vars.color.foreground.onBrandAccent,
  padding: vars.space.large,
  vars: { [vars.color.border.focus]: vars.color.foreground.onBrandAccent },
});
export const brand = style({ margin: 0, fontSize: vars.font.size.title });
export const body = style({ padding: vars.space.large, display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });
export const label = style({ fontWeight: 600 });
export const input = style({
  font: 'inherit',
  padding: `${vars.space.small} ${vars.space.small}`,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
export const primary = style({
  font: 'inherit',
  fontWeight: 600,
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  border: 0,
  background: vars.color.background.brandAccent,
  color: vars.color.foreground.onBrandAccent,
  cursor: 'pointer',
  selectors: { '&:hover, &:active': { background: vars.color.background.brandAccentHover }, '&:disabled': { opacity: 0.7, cursor: 'progress' } },
});
export const links = style({ display: 'flex', justifyContent: 'space-between', gap: vars.space.small, flexWrap: 'wrap' });
export const linkButton = style({
  font: 'inherit',
  background: 'none',
  border: 0,
  padding: 0,
  color: vars.color.foreground.link,
  textDecoration: 'underline',
  cursor: 'pointer',
});
export const error = style({
  color: vars.color.foreground.critical,
  background: vars.color.background.critical,
  padding: vars.space.small,
  borderRadius: vars.radius.standard,
  margin: 0,
});
export const small = style({ fontSize: vars.font.size.small, color: vars.color.foreground.muted, margin: 0 });
