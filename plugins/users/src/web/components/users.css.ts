import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.small, alignItems: 'flex-end' });
export const searchField = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, minWidth: '14rem' });
export const input = style({
  font: 'inherit',
  padding: vars.space.small,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
});
export const numberInput = style([input, { width: '7rem' }]);
export const table = style({ width: '100%', borderCollapse: 'collapse' });
export const cell = style({ textAlign: 'left', padding: vars.space.small, borderBottom: `1px solid ${vars.color.border.standard}`, verticalAlign: 'top' });
export const term = style({ fontWeight: 600 });
export const detail = style({ margin: 0 });
export const fieldset = style({ border: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.small });
export const legend = style({ fontWeight: 600, marginBottom: vars.space.small });
export const checkbox = style({ display: 'flex', alignItems: 'center', gap: vars.space.small, cursor: 'pointer' });
export const box = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '1.1rem',
  height: '1.1rem',
  border: `2px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  selectors: { '[data-focus-visible] &': { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '2px' } },
});
export const error = style({ color: vars.color.foreground.critical, fontSize: vars.font.size.small });
export const muted = style({ color: vars.color.foreground.muted });
export const link = style({ color: vars.color.foreground.link });
/** A grid row's buttons, side by side (wrapping on a narrow screen). */
export const rowActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xsmall });
