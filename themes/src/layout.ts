/**
 * Columns of at least `min` each, as many as fit, sharing the leftover width: a form's fields, a details list, a page's
 * panels. On a screen narrower than `min` (a phone at 320 CSS px, WCAG 1.4.10 Reflow) a column takes the whole width
 * instead of pushing the page sideways. `fit`: 'auto-fill' keeps empty tracks (a lone field stays one column wide),
 * 'auto-fit' lets the columns that exist stretch over them.
 */
export const fluidColumns = (min: string, fit: 'auto-fill' | 'auto-fit' = 'auto-fill') => `repeat(${fit}, minmax(min(100%, ${min}), 1fr))`;
