import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

// Pages outside the signed-in layout (activation, reset): one panel centred on the page, like the login screen.
export const page = style({ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: vars.space.large });
export const frame = style({ width: 'min(520px, 100%)' });

export const muted = style({ margin: 0, color: vars.color.foreground.muted });

export const sections = style({
  display: 'grid',
  gap: vars.space.large,
  gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
  alignItems: 'start',
  marginTop: vars.space.medium,
});
