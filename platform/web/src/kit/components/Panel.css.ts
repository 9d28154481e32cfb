import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const panel = style({
  display: 'flex',
  flexDirection: 'column',
  minWidth: 0,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.large,
  overflow: 'hidden',
});

export const elevated = style({ boxShadow: vars.shadow.raised });

export const banner = style({
  margin: 0,
  padding: vars.space.large,
  background: vars.color.background.brandAccent,
  color: vars.color.foreground.onBrandAccent,
  fontSize: vars.font.size.title,
  fontFamily: vars.font.heading,
});

export const content = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium, padding: vars.space.large });

export const header = style({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: vars.space.medium, flexWrap: 'wrap' });

export const headings = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, minWidth: 0 });

export const title = style({ margin: 0, fontFamily: vars.font.heading, fontSize: vars.font.size.large, lineHeight: 1.3 });

/** A page's own heading (level 1) is larger than a section's. */
export const pageTitle = style({ fontSize: vars.font.size.title });

export const description = style({ margin: 0, color: vars.color.foreground.muted });

export const actions = style({ display: 'flex', alignItems: 'center', gap: vars.space.small, flexWrap: 'wrap' });
