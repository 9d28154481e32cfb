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

export const fields = style({ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '0.12in', margin: 0 });
export const term = style({ fontWeight: 700 });
export const value = style({ margin: 0 });
export const note = style({ fontSize: '7.5pt', marginTop: 'auto' });
export const actions = style({ display: 'flex', gap: vars.space.small, flexWrap: 'wrap' });
export const helpSteps = style({ paddingLeft: vars.space.large });

// On paper: only the card, at its real size, black on white where the printer drops backgrounds.
globalStyle('body *', { '@media': { print: { visibility: 'hidden' } } });
globalStyle(`${printArea}, ${printArea} *`, { '@media': { print: { visibility: 'visible' } } });
globalStyle(printArea, { '@media': { print: { position: 'absolute', left: 0, top: 0, margin: 0, gap: '0.25in' } } });
globalStyle(card, { '@media': { print: { borderColor: '#000', color: '#000' } } });
