import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const page = style({ display: 'flex', flexDirection: 'column', gap: vars.space.large, maxWidth: '60rem' });
export const fields = style({ display: 'grid', gap: vars.space.medium, gridTemplateColumns: fluidColumns('14rem') });
export const queue = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.small });
export const queueItem = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 10rem 7rem', gap: vars.space.small, alignItems: 'center' });
export const fileName = style({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
export const track = style({
  height: '0.6rem',
  borderRadius: vars.radius.standard,
  background: vars.color.border.standard,
  overflow: 'hidden',
});
export const fill = style({ height: '100%', background: vars.color.background.brandAccent, transition: 'width 120ms linear' });
export const state = style({ fontSize: '0.9rem', color: vars.color.foreground.muted });
export const stateError = style({ fontSize: '0.9rem', color: vars.color.foreground.critical });
export const fileList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });
export const fileRow = style({ display: 'flex', gap: vars.space.small, alignItems: 'center', justifyContent: 'space-between' });
