import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const search = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, maxWidth: '28rem', marginBottom: vars.space.medium });
export const input = style({
  font: 'inherit',
  padding: vars.space.small,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
export const units = style([input, { width: '6rem', textAlign: 'right' }]);
export const hint = style({ color: vars.color.foreground.muted, margin: 0, fontSize: '0.9rem', minHeight: '1.4em' });
export const section = style({ marginTop: vars.space.large, overflowX: 'auto' });
export const heading = style({ fontSize: '1.15rem', margin: `0 0 ${vars.space.small}` });
/** The results keep a fixed height while searching, so the selected lines below do not jump. */
export const results = style({ height: '22rem', overflow: 'auto', border: `1px solid ${vars.color.border.standard}`, borderRadius: vars.radius.standard });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontVariantNumeric: 'tabular-nums' });
export const cell = style({ textAlign: 'left', padding: vars.space.small, borderBottom: `1px solid ${vars.color.border.standard}`, verticalAlign: 'middle' });
export const num = style([cell, { textAlign: 'right', whiteSpace: 'nowrap' }]);
export const head = style({ position: 'sticky', top: 0, background: vars.color.background.surface });
export const total = style({ fontWeight: 600 });
