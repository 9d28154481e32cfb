import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const page = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const intro = style({ margin: 0, color: vars.color.foreground.muted });
export const tabList = style({ display: 'flex', gap: vars.space.xsmall, borderBottom: `1px solid ${vars.color.border.standard}`, flexWrap: 'wrap' });
export const tab = style({
  padding: `${vars.space.small} ${vars.space.medium}`,
  cursor: 'pointer',
  color: vars.color.foreground.text,
  borderBottom: '3px solid transparent',
  fontWeight: 600,
  outline: 'none',
  selectors: {
    '&[data-selected]': { borderBottomColor: vars.color.background.brandAccent },
    '&[data-focus-visible]': { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '-2px' },
    '&[data-hovered]': { background: vars.color.background.surfaceRaised },
  },
});
export const panel = style({
  paddingTop: vars.space.medium,
  outline: 'none',
  selectors: { '&[data-focus-visible]': { outline: `2px solid ${vars.color.border.focus}` } },
});
export const heading = style({ margin: `0 0 ${vars.space.xsmall}`, fontSize: vars.font.size.large, fontFamily: vars.font.heading });
export const description = style({ margin: `0 0 ${vars.space.medium}`, color: vars.color.foreground.muted });
export const formGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
  gap: vars.space.medium,
  alignItems: 'start',
});
export const wide = style({ gridColumn: '1 / -1' });
export const actions = style({ gridColumn: '1 / -1', display: 'flex', gap: vars.space.small });
export const primary = style({
  fontFamily: vars.font.body,
  fontSize: vars.font.size.standard,
  fontWeight: 600,
  color: vars.color.foreground.onBrandAccent,
  background: vars.color.background.brandAccent,
  border: 0,
  borderRadius: vars.radius.standard,
  padding: `${vars.space.small} ${vars.space.large}`,
  cursor: 'pointer',
  selectors: {
    '&[data-hovered]': { background: vars.color.background.brandAccentHover },
    '&[data-focus-visible]': { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '2px' },
  },
});
export const result = style({ margin: 0, color: vars.color.foreground.positive });
export const details = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: `${vars.space.xsmall} ${vars.space.medium}`, margin: 0 });
export const term = style({ fontWeight: 600 });
export const definition = style({ margin: 0 });
