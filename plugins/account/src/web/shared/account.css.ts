import { vars } from '@portal/themes';
import { style, styleVariants } from '@vanilla-extract/css';

// Pages outside the signed-in layout (activation, reset): a centred panel like the login screen.
export const page = style({ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: vars.space.large });
export const panel = style({
  width: 'min(520px, 100%)',
  background: vars.color.background.surface,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.raised,
  border: `1px solid ${vars.color.border.standard}`,
  overflow: 'hidden',
});
export const panelHeader = style({ background: vars.color.background.brandAccent, color: vars.color.foreground.onBrandAccent, padding: vars.space.large });
export const brandName = style({ margin: 0, fontSize: vars.font.size.title });
export const panelBody = style({ padding: vars.space.large, display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const heading = style({ margin: 0, fontSize: vars.font.size.title, fontFamily: vars.font.heading });
export const sectionHeading = style({ margin: 0, fontSize: vars.font.size.large, fontFamily: vars.font.heading });
export const muted = style({ margin: 0, color: vars.color.foreground.muted });

export const actions = style({ display: 'flex', gap: vars.space.small, justifyContent: 'flex-end', flexWrap: 'wrap', marginTop: vars.space.small });

const buttonBase = {
  font: 'inherit',
  fontWeight: 600,
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  cursor: 'pointer',
} as const;
export const primary = style({
  ...buttonBase,
  border: 0,
  background: vars.color.background.brandAccent,
  color: vars.color.foreground.onBrandAccent,
  selectors: {
    '&[data-hovered], &[data-pressed]': { background: vars.color.background.brandAccentHover },
    '&[data-focus-visible]': { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '2px' },
    '&[data-disabled]': { opacity: 0.7, cursor: 'progress' },
  },
});
export const secondary = style({
  ...buttonBase,
  border: `1px solid ${vars.color.border.field}`,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  selectors: { '&[data-focus-visible]': { outline: `2px solid ${vars.color.border.focus}`, outlineOffset: '2px' } },
});

export const message = styleVariants({
  success: {
    margin: 0,
    padding: vars.space.medium,
    borderRadius: vars.radius.standard,
    background: vars.color.background.positive,
    color: vars.color.foreground.positive,
  },
  error: {
    margin: 0,
    padding: vars.space.medium,
    borderRadius: vars.radius.standard,
    background: vars.color.background.critical,
    color: vars.color.foreground.critical,
  },
  info: {
    margin: 0,
    padding: vars.space.medium,
    borderRadius: vars.radius.standard,
    background: vars.color.background.info,
    color: vars.color.foreground.info,
  },
});

export const overlay = style({
  position: 'fixed',
  inset: 0,
  background: 'rgba(16, 24, 40, 0.45)',
  display: 'grid',
  placeItems: 'center',
  zIndex: 900,
  padding: vars.space.medium,
});
export const modal = style({
  background: vars.color.background.surface,
  borderRadius: vars.radius.large,
  boxShadow: vars.shadow.raised,
  width: 'min(520px, 100%)',
  maxHeight: '92vh',
  overflowY: 'auto',
});
export const dialog = style({ padding: vars.space.large, outline: 'none', display: 'flex', flexDirection: 'column', gap: vars.space.medium });

export const sections = style({ display: 'grid', gap: vars.space.large, gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', alignItems: 'start' });
export const section = style({
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.large,
  padding: vars.space.large,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.medium,
});
