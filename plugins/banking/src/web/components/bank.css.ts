import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const row = style({ display: 'flex', gap: vars.space.small, alignItems: 'center', flexWrap: 'wrap' });
export const table = style({ width: '100%', borderCollapse: 'collapse' });
export const cell = style({ textAlign: 'left', padding: vars.space.small, borderBottom: `1px solid ${vars.color.border.standard}` });
export const amount = style([cell, { textAlign: 'right', fontVariantNumeric: 'tabular-nums' }]);
export const badge = style({
  display: 'inline-block',
  marginInlineStart: vars.space.xsmall,
  padding: `0 ${vars.space.xsmall}`,
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.standard}`,
  fontSize: vars.font.size.small,
});
export const bank = style({
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  padding: vars.space.medium,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.small,
});
export const heading = style({ fontSize: vars.font.size.large, margin: 0 });
export const muted = style({ color: vars.color.foreground.muted, fontSize: vars.font.size.small, margin: 0 });
/** The aggregator's hosted linking page: 825 px high (spec 01 section 9). */
export const frame = style({ width: '100%', height: 825, border: `1px solid ${vars.color.border.standard}`, borderRadius: vars.radius.standard });
export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, maxWidth: '22rem', fontWeight: 600 });
export const input = style({
  font: 'inherit',
  fontWeight: 'normal',
  padding: vars.space.small,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
export const list = style({
  listStyle: 'none',
  padding: 0,
  margin: 0,
  display: 'grid',
  gap: vars.space.small,
  gridTemplateColumns: fluidColumns('14rem'),
});
