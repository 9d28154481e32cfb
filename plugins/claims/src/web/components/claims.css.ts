import { fluidColumns, vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
/**
 * The bills' filters: the fields line up by their labels (the dates' format hint under their input would push
 * bottom-aligned inputs out of line); the actions sit at the bottom of their cell, beside the inputs of a row.
 */
export const filters = style({ display: 'grid', gridTemplateColumns: fluidColumns('180px'), gap: vars.space.medium, alignItems: 'start' });
export const filterActions = style({ display: 'flex', gap: vars.space.small, alignItems: 'end', flexWrap: 'wrap', alignSelf: 'end' });
export const row = style({ display: 'flex', gap: vars.space.small, alignItems: 'end', flexWrap: 'wrap' });
export const button = style({
  font: 'inherit',
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.field}`,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  cursor: 'pointer',
  selectors: { '&[data-disabled], &:disabled': { opacity: 0.6, cursor: 'not-allowed' } },
});
export const primary = style([
  button,
  {
    background: vars.color.background.brandAccent,
    color: vars.color.foreground.onBrandAccent,
    border: 0,
    selectors: { '&:hover': { background: vars.color.background.brandAccentHover } },
  },
]);
export const fields = style({ display: 'grid', gridTemplateColumns: fluidColumns('240px'), gap: vars.space.medium });
export const dl = style({ display: 'grid', gridTemplateColumns: fluidColumns('220px'), gap: vars.space.medium, margin: 0 });
export const dt = style({ fontSize: vars.font.size.small, color: vars.color.foreground.muted });
export const dd = style({ margin: 0, fontWeight: 600 });
export const message = style({ margin: 0, color: vars.color.foreground.critical });
/** A heading or paragraph in a stack, which spaces its children itself. */
export const flush = style({ margin: 0 });
export const link = style({ color: vars.color.foreground.link });
/** The status picker's list and options (the bills' status change). */
export const statusList = style({
  display: 'flex',
  flexDirection: 'column',
  gap: 2,
  padding: vars.space.small,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  boxShadow: vars.shadow.raised,
});
export const statusOption = style({ padding: vars.space.xsmall, cursor: 'pointer' });
/** The payee search's results. */
export const vendorResults = style({
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  maxHeight: 200,
  overflow: 'auto',
});
export const vendorOption = style({ padding: 6, cursor: 'pointer' });
/** The payee search and its field: label, input and hint close together. */
export const tightStack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });
/** A save refused as stale (role=alert): the caution tint of the kit's warning, with its Reload. */
