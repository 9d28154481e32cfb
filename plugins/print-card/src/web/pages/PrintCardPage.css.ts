import { vars } from '@portal/themes';
import { globalStyle, style } from '@vanilla-extract/css';

/** Both sides of the card; on paper only this prints, each side wallet-size (3.375 x 2.125 in, ID-1). */
export const printArea = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.medium, margin: `${vars.space.medium} 0` });

export const card = style({
  width: '3.375in',
  minHeight: '2.125in',
  boxSizing: 'border-box',
  padding: '0.12in 0.16in',
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: '0.125in',
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  fontSize: '9pt',
  lineHeight: 1.3,
  display: 'flex',
  flexDirection: 'column',
  gap: '0.04in',
  breakInside: 'avoid',
});

export const band = style({
  margin: '-0.12in -0.16in 0.04in',
  padding: '0.06in 0.16in',
  borderRadius: '0.125in 0.125in 0 0',
  background: vars.color.background.brandAccent,
  color: vars.color.foreground.onBrandAccent,
  fontWeight: 700,
  fontSize: '10pt',
  printColorAdjust: 'exact',
  WebkitPrintColorAdjust: 'exact',
});

// The label column takes what its words need, up to half the card; the value column the rest, never more: a value
// wraps inside the card (anywhere, for a 100-character name of one word) instead of pushing the card wider.
export const fields = style({ display: 'grid', gridTemplateColumns: 'fit-content(50%) minmax(0, 1fr)', columnGap: '0.12in', margin: 0 });
export const term = style({ fontWeight: 700, minWidth: 0, overflowWrap: 'break-word' });
// At most two lines a value, the rest as an ellipsis, so the card keeps its ID-1 height (a 2-line name fits in it).
export const value = style({
  margin: 0,
  minWidth: 0,
  overflowWrap: 'anywhere',
  display: '-webkit-box',
  WebkitBoxOrient: 'vertical',
  WebkitLineClamp: 2,
  lineClamp: 2,
  overflow: 'hidden',
});
export const note = style({ fontSize: '7.5pt', marginTop: 'auto' });
export const actions = style({ display: 'flex', gap: vars.space.small, flexWrap: 'wrap' });
export const helpSteps = style({ paddingLeft: vars.space.large });

/**
 * On <body> while the print page is mounted (and removed when it unmounts): the print rules below apply only then.
 * The chunk's stylesheet stays loaded once the page has been visited, so an unscoped rule would blank every other
 * page's printout for the rest of the session.
 */
export const printing = style({});

// On paper: only the card, at its real size, black on white where the printer drops backgrounds.
globalStyle(`${printing} *`, { '@media': { print: { visibility: 'hidden' } } });
globalStyle(`${printing} ${printArea}, ${printing} ${printArea} *`, { '@media': { print: { visibility: 'visible' } } });
globalStyle(printArea, { '@media': { print: { position: 'absolute', left: 0, top: 0, margin: 0, gap: '0.25in' } } });
globalStyle(card, { '@media': { print: { borderColor: '#000', color: '#000' } } });
