import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const fields = style({ display: 'grid', gridTemplateColumns: fluidColumns('16rem'), gap: vars.space.medium });
export const row = style({ display: 'flex', gap: vars.space.small, flexWrap: 'wrap', alignItems: 'flex-end' });
export const term = style({ color: vars.color.foreground.muted });
export const value = style({ margin: 0 });
export const contents = style({ display: 'contents' });
/** A labelled value shown as text inside the edit form (a member's own e-mail address). */
export const readOnlyField = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, margin: 0 });
export const link = style({ color: vars.color.foreground.link, textDecoration: 'underline' });
export const linkButton = style({
  font: 'inherit',
  background: 'none',
  border: 'none',
  padding: 0,
  color: vars.color.foreground.link,
  textDecoration: 'underline',
  cursor: 'pointer',
  textAlign: 'left',
});
