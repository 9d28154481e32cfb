/** Spec 01 section 5: a field's error shows once the field is dirty or a submit was attempted. */
export function shouldShowError(state: { isDirty: boolean; submitCount: number }): boolean {
  return state.isDirty || state.submitCount > 0;
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
