import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const page = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const intro = style({ margin: 0, color: vars.color.foreground.muted });
export const heading = style({ margin: `0 0 ${vars.space.xsmall}`, fontSize: vars.font.size.large, fontFamily: vars.font.heading });
export const description = style({ margin: `0 0 ${vars.space.medium}`, color: vars.color.foreground.muted });
export const formGrid = style({
  display: 'grid',
  gridTemplateColumns: fluidColumns('260px'),
  gap: vars.space.medium,
  alignItems: 'start',
});
export const wide = style({ gridColumn: '1 / -1' });
export const result = style({ margin: 0, color: vars.color.foreground.positive });
export const term = style({ fontWeight: 600 });
export const definition = style({ margin: 0 });
export const paragraph = style({ margin: 0 });
export const note = style({ margin: 0, color: vars.color.foreground.muted });
export const components = style({
  display: 'grid',
  gridTemplateColumns: fluidColumns('340px'),
  gap: vars.space.medium,
  alignItems: 'start',
});
