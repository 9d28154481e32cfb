import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

/** The shade: the theme's text colour, faint, fading to nothing (drawn over the table, so the text under it reads). */
const shade = `color-mix(in srgb, ${vars.color.foreground.text} 22%, transparent)`;

const edge = {
  content: '""',
  position: 'absolute',
  top: 0,
  bottom: 0,
  width: '1.5rem',
  pointerEvents: 'none',
  opacity: 0,
  transition: 'opacity 120ms',
  zIndex: 2,
} as const;

/**
 * The wrapper of a frame that scrolls sideways: a shade at each edge past which columns are hidden (data-more-before,
 * data-more-after, set by useSideways), so a phone user sees the table goes on. The shades do not scroll with the
 * table and take no pointer events.
 */
export const edges = style({
  position: 'relative',
  minWidth: 0,
  maxWidth: '100%',
  selectors: {
    '&::before': { ...edge, left: 0, background: `linear-gradient(to right, ${shade}, transparent)` },
    '&::after': { ...edge, right: 0, background: `linear-gradient(to left, ${shade}, transparent)` },
    '&[data-more-before]::before': { opacity: 1 },
    '&[data-more-after]::after': { opacity: 1 },
  },
});
