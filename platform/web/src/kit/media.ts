/**
 * The one breakpoint of the sites' layouts: below it is a phone (the toolbar folds its navigation behind a Menu
 * button, label-and-value lists stack), from it a wider screen. For `@media` in vanilla-extract styles.
 */
export const NARROW_SCREEN = 'screen and (max-width: 47.99rem)';
export const WIDE_SCREEN = 'screen and (min-width: 48rem)';
