import { style } from '@vanilla-extract/css';

/** The frame scrolls sideways; the page never does (WCAG 1.4.10 Reflow). */
export const frame = style({ overflowX: 'auto', maxWidth: '100%', selectors: { '&:focus-visible': { outlineOffset: '2px' } } });
