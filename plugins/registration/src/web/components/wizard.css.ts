import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium, maxWidth: '60rem' });
export const heading = style({ margin: 0, fontSize: vars.font.size.large });
export const tabs = style({ display: 'flex', gap: vars.space.small, listStyle: 'none', padding: 0, margin: 0, flexWrap: 'wrap' });
export const tab = style({
  padding: `${vars.space.xsmall} ${vars.space.small}`,
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.standard}`,
});
export const tabCurrent = style({ fontWeight: 700, borderWidth: 2 });
export const fields = style({ display: 'grid', gridTemplateColumns: fluidColumns('16rem'), gap: vars.space.medium });
export const nav = style({ display: 'flex', gap: vars.space.small, justifyContent: 'space-between', flexWrap: 'wrap' });
export const term = style({ fontWeight: 700 });
export const value = style({ margin: 0 });
export const row = style({ display: 'flex', gap: vars.space.small, alignItems: 'end', flexWrap: 'wrap' });
export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, maxWidth: '20rem' });
export const radios = style({ display: 'flex', flexDirection: 'column', gap: vars.space.small });
