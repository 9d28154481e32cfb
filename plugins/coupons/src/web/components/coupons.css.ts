import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const row = style({ display: 'flex', gap: vars.space.small, alignItems: 'end', flexWrap: 'wrap' });
export const fields = style({ display: 'grid', gridTemplateColumns: fluidColumns('240px'), gap: vars.space.medium });
export const dl = style({ display: 'grid', gridTemplateColumns: fluidColumns('220px'), gap: vars.space.medium, margin: 0 });
export const dt = style({ fontSize: vars.font.size.small, color: vars.color.foreground.muted });
export const dd = style({ margin: 0, fontWeight: 600 });
export const link = style({ color: vars.color.foreground.link });
/** A save refused as stale (role=alert): the caution tint of the kit's warning, with its Reload. */
