import { vars, visuallyHiddenRule } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const row = style({ display: 'flex', gap: vars.space.small, flexWrap: 'wrap', alignItems: 'flex-end' });
export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });
export const label = style({ fontWeight: 600 });
export const textarea = style({
  font: 'inherit',
  minHeight: '8rem',
  padding: vars.space.small,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  color: vars.color.foreground.text,
  resize: 'vertical',
});
export const error = style({ color: vars.color.foreground.critical, fontSize: vars.font.size.small });
export const help = style({ color: vars.color.foreground.muted, fontSize: vars.font.size.small });
export const thread = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.medium });
export const note = style({
  border: `1px solid ${vars.color.border.standard}`,
  borderRadius: vars.radius.standard,
  padding: vars.space.medium,
  background: vars.color.background.surface,
});
export const staffNote = style({ borderLeft: `4px solid ${vars.color.border.focus}` });
export const current = style({ boxShadow: `0 0 0 2px ${vars.color.border.focus}` });
export const noteHead = style({ display: 'flex', gap: vars.space.small, flexWrap: 'wrap', alignItems: 'baseline', marginBottom: vars.space.small });
export const author = style({ fontWeight: 700 });
export const muted = style({ color: vars.color.foreground.muted, fontSize: vars.font.size.small });
export const text = style({ whiteSpace: 'pre-wrap', margin: 0 });
export const files = style({ listStyle: 'none', padding: 0, margin: `${vars.space.small} 0 0`, display: 'flex', flexWrap: 'wrap', gap: vars.space.small });
export const badge = style({
  display: 'inline-block',
  minWidth: '1.4em',
  marginLeft: vars.space.xsmall,
  padding: '0 0.4em',
  borderRadius: '999px',
  // Solid critical with the surface colour on it (about 6:1 in the base theme); white on the light critical
  // background read at 1.1:1.
  background: vars.color.foreground.critical,
  color: vars.color.background.surface,
  fontSize: vars.font.size.small,
  fontWeight: 700,
  textAlign: 'center',
  lineHeight: 1.5,
});
export const unread = style({ fontWeight: 700 });
export const widgetList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.small });
/** A recent note's opening words on one line (cut with an ellipsis), so the five notes fit the dashboard's frame. */
export const widgetLink = style({ display: 'block', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' });
/** A save refused as stale (role=alert): the caution tint of the kit's warning, with its Reload. */
/**
 * The unread count's words for screen readers. A class of its own (the kit's rule): the badge loads with every
 * signed-in page, and the kit's `visuallyHidden` would be one more chunk for it to load.
 */
export const hidden = style(visuallyHiddenRule);
