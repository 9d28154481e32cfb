import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const fields = style({ display: 'grid', gridTemplateColumns: fluidColumns('16rem'), gap: vars.space.medium });
export const term = style({ color: vars.color.foreground.muted });
export const value = style({ margin: 0 });
export const nameButton = style({
  font: 'inherit',
  background: 'none',
  border: 'none',
  padding: 0,
  color: vars.color.foreground.link,
  textDecoration: 'underline',
  cursor: 'pointer',
  textAlign: 'left',
});
/** A save refused as stale (role=alert): the caution tint of the kit's warning, with its Reload. */
