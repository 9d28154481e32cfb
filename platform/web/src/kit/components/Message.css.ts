import { vars } from '@portal/themes';
import { style, styleVariants } from '@vanilla-extract/css';

const base = style({
  margin: 0,
  padding: `${vars.space.small} ${vars.space.medium}`,
  borderRadius: vars.radius.standard,
  // The strip on the leading edge tells the kinds apart beyond their tint.
  borderInlineStart: '4px solid currentColor',
  fontFamily: vars.font.body,
  fontSize: vars.font.size.standard,
  outline: 'none',
});

export const message = styleVariants({
  info: [base, { background: vars.color.background.info, color: vars.color.foreground.info }],
  success: [base, { background: vars.color.background.positive, color: vars.color.foreground.positive }],
  warning: [base, { background: vars.color.background.caution, color: vars.color.foreground.caution }],
  error: [base, { background: vars.color.background.critical, color: vars.color.foreground.critical }],
});

export const title = style({ display: 'block', fontWeight: 600 });
