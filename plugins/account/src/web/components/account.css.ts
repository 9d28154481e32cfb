import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

// Pages outside the signed-in layout (activation, reset): one panel centred on the page, like the login screen.
// One column as wide as the screen allows: an auto column would grow to the form's widest row (a password field and
// its Show button) and push a phone's page sideways.
export const page = style({ minHeight: '100vh', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', placeItems: 'center', padding: vars.space.large });
export const frame = style({ width: 'min(520px, 100%)' });

export const muted = style({ margin: 0, color: vars.color.foreground.muted });

export const sections = style({
  display: 'grid',
  gap: vars.space.large,
  gridTemplateColumns: fluidColumns('320px', 'auto-fit'),
  alignItems: 'start',
  marginTop: vars.space.medium,
});
