/** Translate hook shape kept minimal so core stays free of i18next. */
export type Translate = (key: 'Yes' | 'No') => string;

/** Booleans show Yes or No; pass i18next's t (with keys 'Yes'/'No') to localise. */
export function yesNo(value: boolean | null | undefined, t: Translate = (key) => key): string {
  return t(value ? 'Yes' : 'No');
}
