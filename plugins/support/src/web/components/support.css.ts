import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const row = style({ display: 'flex', gap: vars.space.small, alignItems: 'end', flexWrap: 'wrap' });
export const field = style({ display: 'flex', flexDirection: 'column', gap: '0.25rem' });
export const input = style({ minWidth: '12rem', padding: '0.4rem 0.5rem' });
export const dl = style({ display: 'grid', gridTemplateColumns: fluidColumns('200px'), gap: vars.space.small, margin: 0 });
export const dt = style({ fontSize: vars.font.size.small, color: vars.color.foreground.muted });
export const dd = style({ margin: 0, fontWeight: 600, overflowWrap: 'anywhere' });
export const link = style({ color: vars.color.foreground.link });
export const actions = style({ display: 'flex', gap: '0.25rem', flexWrap: 'wrap' });
/** The dashboard's support work: a line each, the ones with work as links. */
export const queueList = style({ listStyle: 'none', padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: vars.space.small });
/** The terminate dialog's separate choice to close the member's logins: a labelled checkbox (the label toggles it). */
export const checkbox = style({ display: 'flex', alignItems: 'center', gap: vars.space.small, cursor: 'pointer', fontWeight: 600 });
export const checkboxBox = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  width: '1.1rem',
  height: '1.1rem',
  border: `2px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  selectors: { [`${checkbox}[data-focus-visible] &`]: { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '2px' } },
});
export const hint = style({ margin: 0, fontSize: vars.font.size.small, color: vars.color.foreground.muted });
