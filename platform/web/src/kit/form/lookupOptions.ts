import type { LookupItem } from '@portal/core';
import { US_STATES } from '@portal/core';

export interface SelectOption {
  value: string | number;
  label: string;
  /** The language of the label when it is not the page's (a language's own name: 'Español'), for screen readers. */
  lang?: string;
}

/** Options of one lookup category in server sort order. */
export function lookupOptions(items: readonly LookupItem[], category: string): SelectOption[] {
  return items
    .filter((item) => item.Category === category)
    .sort((a, b) => a.Sort - b.Sort)
    .map((item) => ({ value: item.Key, label: item.Value }));
}

/** The category's default key (IsDefault), for a form's defaultValues. */
export function lookupDefault(items: readonly LookupItem[], category: string): number | undefined {
  return items.find((item) => item.Category === category && item.IsDefault)?.Key;
}

export const STATE_OPTIONS: readonly SelectOption[] = US_STATES.map((s) => ({ value: s.abbreviation, label: s.name }));
