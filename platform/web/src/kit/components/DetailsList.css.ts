import { vars } from '@portal/themes';
import { globalStyle, style } from '@vanilla-extract/css';
import { NARROW_SCREEN } from '../media';

/**
 * A definition list of labels and values (`<dl className={detailsList}>`): labels in a column beside their values,
 * and above them on a phone, so a long label never pushes the values out of a narrow card. Long values wrap.
 */
export const detailsList = style({
  display: 'grid',
  gridTemplateColumns: 'max-content minmax(0, 1fr)',
  gap: `${vars.space.xsmall} ${vars.space.medium}`,
  margin: 0,
  overflowWrap: 'anywhere',
  '@media': { [NARROW_SCREEN]: { gridTemplateColumns: 'minmax(0, 1fr)', rowGap: 0 } },
});
globalStyle(`${detailsList} dd`, { margin: 0, '@media': { [NARROW_SCREEN]: { marginBottom: vars.space.small } } });
