import { vars } from '@portal/themes';
import { keyframes, style, styleVariants } from '@vanilla-extract/css';

export const region = style({
  position: 'fixed',
  top: vars.space.medium,
  right: vars.space.medium,
  zIndex: 1000,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.small,
  width: 'min(380px, calc(100vw - 32px))',
});

export const toast = style({
  position: 'relative',
  overflow: 'hidden',
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.small,
  padding: `${vars.space.small} ${vars.space.medium}`,
  paddingBottom: '12px',
  borderRadius: vars.radius.standard,
  boxShadow: vars.shadow.raised,
  border: `1px solid ${vars.color.border.standard}`,
  fontSize: vars.font.size.standard,
});

export const kind = styleVariants({
  success: { background: vars.color.background.positive, color: vars.color.foreground.positive },
  error: { background: vars.color.background.critical, color: vars.color.foreground.critical },
  warning: { background: vars.color.background.caution, color: vars.color.foreground.caution },
  info: { background: vars.color.background.info, color: vars.color.foreground.info },
});

export const message = style({ flex: 1, background: 'none', border: 0, padding: 0, textAlign: 'left', color: 'inherit', font: 'inherit' });
export const clickable = style({ cursor: 'pointer', textDecoration: 'underline' });

export const close = style({
  background: 'none',
  border: 0,
  color: 'inherit',
  cursor: 'pointer',
  fontSize: '1.1rem',
  lineHeight: 1,
  padding: vars.space.xsmall,
  borderRadius: vars.radius.standard,
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.border.focus}` } },
});

const shrink = keyframes({ from: { transform: 'scaleX(1)' }, to: { transform: 'scaleX(0)' } });
export const progress = style({
  position: 'absolute',
  left: 0,
  bottom: 0,
  height: '3px',
  width: '100%',
  background: 'currentColor',
  opacity: 0.5,
  transformOrigin: 'left',
  animationName: shrink,
  animationTimingFunction: 'linear',
  animationFillMode: 'forwards',
});
