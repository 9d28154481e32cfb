import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const row = style({ display: 'flex', gap: vars.space.small, alignItems: 'end', flexWrap: 'wrap' });
export const table = style({ width: '100%', borderCollapse: 'collapse' });
export const cell = style({ textAlign: 'left', padding: vars.space.small, borderBottom: `1px solid ${vars.color.border.standard}` });
export const badge = style({
  display: 'inline-block',
  marginInlineStart: vars.space.xsmall,
  padding: `0 ${vars.space.xsmall}`,
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.standard}`,
  fontSize: vars.font.size.small,
});
/** The hosted card form: at least 500 px high (spec 01 section 9). */
export const frame = style({
  width: '100%',
  minHeight: 500,
  height: 500,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
});
export const radios = style({ display: 'flex', flexDirection: 'column', gap: vars.space.small });
export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, maxWidth: '20rem' });
export const input = style({
  font: 'inherit',
  padding: vars.space.small,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
export const heading = style({ fontSize: vars.font.size.large, margin: 0 });
/** The line above the card form naming the card it edits. */
export const formTitle = style({ margin: 0, fontWeight: 600 });
/** A money column: right-aligned, digits of equal width so amounts line up. */
export const amountCell = style([cell, { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }]);
