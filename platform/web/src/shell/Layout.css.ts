import { vars } from '@portal/themes';
import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { NARROW_SCREEN, WIDE_SCREEN } from '../kit/media';

globalStyle('html, body', {
  margin: 0,
  background: vars.color.background.body,
  color: vars.color.foreground.text,
  fontFamily: vars.font.body,
  fontSize: vars.font.size.standard,
  lineHeight: 1.5,
  // A word longer than its line (an e-mail address, a file name) breaks rather than pushing a phone's page sideways.
  overflowWrap: 'break-word',
});
globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('a', { color: vars.color.foreground.link });
globalStyle(':focus-visible', { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '2px' });

export const skip = style({
  position: 'absolute',
  left: '-999px',
  top: 0,
  selectors: { '&:focus': { left: vars.space.small, zIndex: 2000, background: vars.color.background.surface, padding: vars.space.small } },
});

export const toolbar = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.medium,
  padding: `0 ${vars.space.large}`,
  minHeight: '56px',
  color: vars.color.foreground.onToolbar,
  flexWrap: 'wrap',
  rowGap: vars.space.xsmall,
  '@media': {
    [NARROW_SCREEN]: { padding: `${vars.space.small} ${vars.space.large}`, rowGap: vars.space.small },
    [WIDE_SCREEN]: { paddingTop: vars.space.small },
  },
});
// On a bar of the toolbar's colour the focus ring is the bar's text colour: the brand's focus colour is the bar's own
// on three brands, and a ring of the bar's colour on the bar cannot be seen.
const onToolbarFocus = { vars: { [vars.color.border.focus]: vars.color.foreground.onToolbar } };
export const toolbarColour = styleVariants({
  assist: { background: vars.color.toolbar.assist, ...onToolbarFocus },
  guard: { background: vars.color.toolbar.guard, ...onToolbarFocus },
  standard: { background: vars.color.toolbar.standard, ...onToolbarFocus },
});

export const brandName = style({
  fontWeight: 700,
  fontSize: vars.font.size.large,
  marginRight: vars.space.medium,
  color: 'inherit',
  textDecoration: 'none',
  '@media': { [WIDE_SCREEN]: { marginRight: 'auto' } },
});
// On a phone the navigation folds behind the Menu button instead of filling the first screen; on a wider screen it
// has a row of its own under the brand and the tools, as wide as the page.
export const menuButton = style({ display: 'none', '@media': { [NARROW_SCREEN]: { display: 'inline-block' } } });
export const nav = style({
  flex: 1,
  '@media': {
    [NARROW_SCREEN]: { display: 'none', flexBasis: '100%', selectors: { '&[data-open]': { display: 'block' } } },
    [WIDE_SCREEN]: { flexBasis: '100%', paddingBottom: vars.space.xsmall },
  },
});
export const navList = style({
  display: 'flex',
  gap: vars.space.xsmall,
  listStyle: 'none',
  margin: 0,
  padding: 0,
  flexWrap: 'wrap',
  flex: 1,
  '@media': { [NARROW_SCREEN]: { flexDirection: 'column', paddingBottom: vars.space.small } },
});
export const navLink = style({
  display: 'block',
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  color: 'inherit',
  textDecoration: 'none',
  selectors: { '&:hover': { background: 'rgba(255,255,255,0.14)' } },
});
// A darker overlay keeps white text above 4.5:1 contrast on every toolbar colour.
export const navLinkActive = style({ background: 'rgba(0,0,0,0.28)', fontWeight: 600, textDecoration: 'underline' });
export const navGroup = style({ position: 'relative' });
globalStyle(`${navGroup} > summary`, { cursor: 'pointer', listStyle: 'none' });
// The open group's entries drop below the bar, on the toolbar's own colour so the contrast holds.
export const navGroupList = style({
  position: 'absolute',
  zIndex: 10,
  top: '100%',
  left: 0,
  minWidth: '14rem',
  listStyle: 'none',
  margin: 0,
  padding: vars.space.xsmall,
  background: 'inherit',
  backgroundColor: 'rgba(0,0,0,0.85)',
  borderRadius: vars.radius.standard,
  // In the folded phone menu a group's entries open in place, indented, rather than over the entries below.
  '@media': { [NARROW_SCREEN]: { position: 'static', minWidth: 0, background: 'none', paddingLeft: vars.space.large } },
});
export const user = style({ display: 'flex', alignItems: 'center', gap: vars.space.small });
export const toolbarButton = style({
  background: 'transparent',
  color: 'inherit',
  border: '1px solid rgba(255,255,255,0.6)',
  borderRadius: vars.radius.standard,
  padding: `${vars.space.xsmall} ${vars.space.medium}`,
  cursor: 'pointer',
  font: 'inherit',
});
export const banner = style({
  display: 'flex',
  gap: vars.space.medium,
  alignItems: 'center',
  padding: `${vars.space.small} ${vars.space.large}`,
  background: vars.color.background.caution,
  color: vars.color.foreground.caution,
});
export const titleBar = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  padding: `${vars.space.medium} ${vars.space.large} 0`,
  maxWidth: '1200px',
  margin: '0 auto',
});
export const title = style({ margin: 0, fontSize: vars.font.size.title, fontFamily: vars.font.heading });
export const main = style({ padding: vars.space.large, maxWidth: '1200px', margin: '0 auto' });
export const card = style({
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.large,
  padding: vars.space.large,
  boxShadow: vars.shadow.raised,
});
export const picker = style({ display: 'flex', alignItems: 'center', gap: vars.space.xsmall, flexWrap: 'wrap' });
export const pickerLabel = style({ fontSize: vars.font.size.small });
export const pickerInput = style({
  width: '7rem',
  font: 'inherit',
  padding: `2px ${vars.space.small}`,
  borderRadius: vars.radius.standard,
  border: '1px solid rgba(255,255,255,0.6)',
  background: 'rgba(255,255,255,0.95)',
  color: vars.color.foreground.text,
});
export const pickerError = style({
  fontSize: vars.font.size.small,
  background: vars.color.background.critical,
  color: vars.color.foreground.critical,
  padding: `2px ${vars.space.small}`,
  borderRadius: vars.radius.standard,
});
export const pageErrorButton = style({
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  padding: `${vars.space.xsmall} ${vars.space.medium}`,
  cursor: 'pointer',
  font: 'inherit',
});
