/** Spec 01 section 5: a field's error shows once the field is dirty or a submit was attempted. */
export function shouldShowError(state: { isDirty: boolean; submitCount: number }): boolean {
  return state.isDirty || state.submitCount > 0;
}

/**
 * "Dirty" as the spec means it: the field was changed, and stays so when its value is put back (react-hook-form's own
 * isDirty clears when the value equals the default again, so a required field typed in and cleared hid its error).
 * It ends only when the form is reset (the field untouched, unchanged and without an error again).
 */
export function stickyDirty(wasDirty: boolean, field: { isDirty: boolean; isTouched: boolean; hasError: boolean }): boolean {
  return field.isDirty || (wasDirty && (field.isTouched || field.hasError));
}

/** Error text to show, or undefined; messages may be i18n keys (shared core schemas) or plain text. */
export function visibleError(
  message: string | undefined,
  state: { isDirty: boolean; submitCount: number },
  translate: (key: string) => string,
): string | undefined {
  if (!message || !shouldShowError(state)) return undefined;
  return translate(message);
}
