import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

/** The video fills the dialog's width and keeps its shape. */
export const video = style({
  display: 'block',
  width: '100%',
  height: 'auto',
  aspectRatio: '1024 / 700',
  borderRadius: vars.radius.standard,
  border: `1px solid ${vars.color.border.standard}`,
  background: vars.color.background.surface,
});
