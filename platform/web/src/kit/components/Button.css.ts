import { vars } from '@portal/themes';
import { keyframes, style, styleVariants } from '@vanilla-extract/css';

/** The kit's focus ring; react-aria sets data-focus-visible only for keyboard focus. */
export const focusRing = {
  outline: `2px solid ${vars.color.border.focus}`,
  outlineOffset: '2px',
} as const;

const base = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.small,
  fontFamily: vars.font.body,
  fontWeight: 600,
  lineHeight: 1.3,
  borderRadius: vars.radius.standard,
  border: '1px solid transparent',
  cursor: 'pointer',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  selectors: {
    '&[data-focus-visible]': focusRing,
    '&[data-disabled]': { opacity: 0.6, cursor: 'default' },
    '&[data-pending]': { cursor: 'progress' },
  },
});

export const variant = styleVariants({
  primary: [
    base,
    {
      color: vars.color.foreground.onBrandAccent,
      background: vars.color.background.brandAccent,
      borderColor: vars.color.background.brandAccent,
      selectors: {
        '&[data-hovered], &[data-pressed]': { background: vars.color.background.brandAccentHover, borderColor: vars.color.background.brandAccentHover },
      },
    },
  ],
  secondary: [
    base,
    {
      fontWeight: 400,
      color: vars.color.foreground.text,
      background: vars.color.background.surfaceRaised,
      borderColor: vars.color.border.standard,
      selectors: { '&[data-hovered], &[data-pressed]': { borderColor: vars.color.border.focus } },
    },
  ],
  // The critical text colour as a fill: the theme has no separate "danger" fill, and white on it passes 4.5:1.
  danger: [
    base,
    {
      color: vars.color.background.surface,
      background: vars.color.foreground.critical,
      borderColor: vars.color.foreground.critical,
      selectors: { '&[data-hovered], &[data-pressed]': { filter: 'brightness(0.88)' } },
    },
  ],
  link: [
    base,
    {
      fontWeight: 400,
      color: vars.color.foreground.link,
      background: 'none',
      textDecoration: 'underline',
      selectors: { '&[data-hovered]': { textDecorationThickness: '2px' } },
    },
  ],
});

export const size = styleVariants({
  small: { fontSize: vars.font.size.small, padding: `${vars.space.xsmall} ${vars.space.small}` },
  medium: { fontSize: vars.font.size.standard, padding: `${vars.space.small} ${vars.space.medium}` },
  large: { fontSize: vars.font.size.large, padding: `${vars.space.small} ${vars.space.large}` },
});

/** A link-styled button sits in running text: no box around it (declared after size, so it wins). */
export const linkSize = style({ padding: 0, border: 0 });

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = style({
  width: '1em',
  height: '1em',
  flex: 'none',
  borderRadius: '50%',
  border: '2px solid currentColor',
  borderRightColor: 'transparent',
  animation: `${spin} 0.8s linear infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animationDuration: '2.4s' } },
});

export const group = styleVariants({
  end: { display: 'flex', flexWrap: 'wrap', gap: vars.space.small, justifyContent: 'flex-end' },
  start: { display: 'flex', flexWrap: 'wrap', gap: vars.space.small, justifyContent: 'flex-start' },
});
