import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';
import { focusRing } from './Button.css';

export const tabs = style({
  display: 'flex',
  flexDirection: 'column',
  selectors: { '&[data-orientation="vertical"]': { flexDirection: 'row', gap: vars.space.large } },
});

export const tabList = style({
  display: 'flex',
  gap: vars.space.xsmall,
  flexWrap: 'wrap',
  borderBottom: `1px solid ${vars.color.border.standard}`,
  selectors: {
    '&[data-orientation="vertical"]': {
      flexDirection: 'column',
      flexWrap: 'nowrap',
      borderBottom: 0,
      borderInlineEnd: `1px solid ${vars.color.border.standard}`,
    },
  },
});

export const tab = style({
  padding: `${vars.space.small} ${vars.space.medium}`,
  color: vars.color.foreground.text,
  fontFamily: vars.font.body,
  fontWeight: 600,
  borderBottom: '3px solid transparent',
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-selected]': { borderBottomColor: vars.color.background.brandAccent },
    '&[data-hovered]': { background: vars.color.background.surfaceRaised },
    '&[data-focus-visible]': { ...focusRing, outlineOffset: '-2px' },
    '&[data-disabled]': { color: vars.color.foreground.muted, cursor: 'default' },
    [`${tabList}[data-orientation="vertical"] &`]: { borderBottom: 0, borderInlineEnd: '3px solid transparent' },
    [`${tabList}[data-orientation="vertical"] &[data-selected]`]: { borderInlineEndColor: vars.color.background.brandAccent },
  },
});

export const panel = style({
  flex: 1,
  minWidth: 0,
  paddingTop: vars.space.medium,
  outline: 'none',
  selectors: { '&[data-focus-visible]': { outline: `2px solid ${vars.color.border.focus}` } },
});
