import { vars } from '@portal/themes';
import { globalStyle, style } from '@vanilla-extract/css';

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.medium });

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall, fontFamily: vars.font.body });

export const label = style({ color: vars.color.foreground.text, fontSize: vars.font.size.standard, fontWeight: 600 });

export const required = style({ color: vars.color.foreground.muted, fontWeight: 400, marginInlineStart: vars.space.xsmall });

export const description = style({ color: vars.color.foreground.muted, fontSize: vars.font.size.small });

export const error = style({ color: vars.color.foreground.critical, fontSize: vars.font.size.small });

const focusRing = {
  outline: `2px solid ${vars.color.border.focus}`,
  outlineOffset: '1px',
};

export const input = style({
  fontFamily: vars.font.body,
  fontSize: vars.font.size.standard,
  color: vars.color.foreground.text,
  background: vars.color.background.surface,
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  padding: `${vars.space.small} ${vars.space.medium}`,
  minWidth: 0,
  // A select's chosen option (a name and e-mail address) wraps inside the field on a phone.
  overflowWrap: 'anywhere',
  selectors: {
    '&[data-focused], &:focus-visible': focusRing,
    '&[data-invalid], &[aria-invalid="true"]': { borderColor: vars.color.border.critical },
    '&[data-disabled]': { opacity: 0.6 },
  },
});

/** NativeSelectField: the select drawn as an input, its own arrow replaced by the kit's ▾ (as SelectField shows). */
export const nativeSelectBox = style({
  position: 'relative',
  display: 'inline-flex',
  selectors: {
    '&::after': {
      content: '"▾"',
      position: 'absolute',
      insetInlineEnd: vars.space.medium,
      top: '50%',
      transform: 'translateY(-50%)',
      color: vars.color.foreground.text,
      pointerEvents: 'none',
    },
  },
});
export const nativeSelect = style([
  input,
  { appearance: 'none', width: '100%', paddingInlineEnd: `calc(${vars.space.medium} * 2 + 0.75em)`, cursor: 'pointer', lineHeight: 'normal' },
]);

export const inputRow = style({ display: 'flex', alignItems: 'stretch', gap: vars.space.xsmall });

export const checkbox = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.small,
  color: vars.color.foreground.text,
  cursor: 'pointer',
});

export const checkboxBox = style({
  width: '1.1em',
  height: '1.1em',
  border: `1px solid ${vars.color.border.field}`,
  borderRadius: vars.radius.standard,
  background: vars.color.background.surface,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  color: vars.color.foreground.onBrandAccent,
  selectors: {
    [`${checkbox}[data-selected] &, ${checkbox}[data-indeterminate] &`]: {
      background: vars.color.background.formAccent,
      borderColor: vars.color.background.formAccent,
    },
    [`${checkbox}[data-focus-visible] &`]: focusRing,
    [`${checkbox}[data-invalid] &`]: { borderColor: vars.color.border.critical },
  },
});

export const radio = style([checkbox]);

export const radioCircle = style({
  width: '1.1em',
  height: '1.1em',
  borderRadius: '50%',
  border: `1px solid ${vars.color.border.field}`,
  background: vars.color.background.surface,
  selectors: {
    [`${radio}[data-selected] &`]: { borderWidth: '0.35em', borderColor: vars.color.background.formAccent },
    [`${radio}[data-focus-visible] &`]: focusRing,
  },
});

export const radioList = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });

export const checklist = style({ listStyle: 'none', margin: 0, padding: 0, fontSize: vars.font.size.small });

export const rulePassed = style({ color: vars.color.foreground.positive });
export const ruleFailed = style({ color: vars.color.foreground.muted });

export const fileList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space.xsmall });

export const calendar = style({ padding: vars.space.small, color: vars.color.foreground.text });

export const calendarHeader = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.small });

export const calendarCell = style({
  textAlign: 'center',
  padding: vars.space.xsmall,
  borderRadius: vars.radius.standard,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&[data-outside-month]': { display: 'none' },
    '&[data-selected]': { background: vars.color.background.brandAccent, color: vars.color.foreground.onBrandAccent },
    '&[data-focus-visible]': focusRing,
    '&[data-disabled], &[data-unavailable]': { color: vars.color.foreground.muted, cursor: 'default' },
  },
});

export const dateGroup = style([input, { display: 'inline-flex', alignItems: 'center', gap: vars.space.small, padding: `0 0 0 ${vars.space.medium}` }]);

export const dateInput = style({ display: 'inline-flex', padding: `${vars.space.small} 0` });

export const dateSegment = style({
  padding: '0 1px',
  borderRadius: vars.radius.standard,
  outline: 'none',
  selectors: {
    '&[data-placeholder]': { color: vars.color.foreground.muted },
    '&[data-focused]': { background: vars.color.background.formAccent, color: vars.color.foreground.onBrandAccent },
  },
});

export const prefix = style({ alignSelf: 'center', color: vars.color.foreground.muted });

globalStyle(`${field} input::placeholder`, { color: vars.color.foreground.muted });

/** A field built on <fieldset> (file picker): the native group, without the browser frame. */
export const fieldset = style([field, { border: 0, margin: 0, padding: 0, minWidth: 0 }]);
