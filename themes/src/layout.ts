/**
 * Columns of at least `min` each, as many as fit, sharing the leftover width: a form's fields, a details list, a page's
 * panels. On a screen narrower than `min` (a phone at 320 CSS px, WCAG 1.4.10 Reflow) a column takes the whole width
 * instead of pushing the page sideways. `fit`: 'auto-fill' keeps empty tracks (a lone field stays one column wide),
 * 'auto-fit' lets the columns that exist stretch over them.
 */
export const fluidColumns = (min: string, fit: 'auto-fill' | 'auto-fit' = 'auto-fill') => `repeat(${fit}, minmax(min(100%, ${min}), 1fr))`;

/**
 * Words for screen readers only (a table's caption, a label the layout shows another way): out of sight and out of the
 * layout, still read out. The rule, for a style of one's own where a module must not take the kit's class with it (the
 * sign-in page's language menu: the kit's class would be a chunk of its own on the sign-in path); else the kit's
 * `visuallyHidden` class.
 */
export const visuallyHiddenRule = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
