import { vars } from '@portal/themes';
import { style, styleVariants } from '@vanilla-extract/css';
import { focusRing } from './Button.css';

// A neutral scrim, not a brand colour: the theme has no token for it and every brand dims the page the same way.
export const overlay = style({
  position: 'fixed',
  inset: 0,
  zIndex: 900,
  display: 'grid',
  // One column no wider than the screen: an auto column grows to the dialog's widest row and a phone would cut it off.
  gridTemplateColumns: 'minmax(0, 1fr)',
  placeItems: 'center',
  padding: vars.space.medium,
  background: 'rgba(0, 0, 0, 0.45)',
});

const modalBase = style({
  width: '100%',
  maxHeight: '92vh',
  overflowY: 'auto',
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  fontFamily: vars.font.body,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.raised,
});

export const modal = styleVariants({
  small: [modalBase, { maxWidth: '400px' }],
  medium: [modalBase, { maxWidth: '520px' }],
  large: [modalBase, { maxWidth: '760px' }],
});

export const dialog = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.medium,
  padding: vars.space.large,
  outline: 'none',
});

export const header = style({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: vars.space.medium });

export const title = style({ margin: 0, fontSize: vars.font.size.title, fontFamily: vars.font.heading, lineHeight: 1.25 });

export const close = style({
  flex: 'none',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '2rem',
  height: '2rem',
  marginBlockStart: `calc(-1 * ${vars.space.xsmall})`,
  marginInlineEnd: `calc(-1 * ${vars.space.small})`,
  padding: 0,
  border: 0,
  borderRadius: vars.radius.standard,
  background: 'none',
  color: vars.color.foreground.muted,
  fontSize: vars.font.size.title,
  lineHeight: 1,
  cursor: 'pointer',
  selectors: {
    '&[data-hovered]': { background: vars.color.background.surfaceRaised, color: vars.color.foreground.text },
    '&[data-focus-visible]': focusRing,
  },
});

export const body = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
