import type { LookupItem } from '@portal/core';
import { LookupCategory, US_STATES } from '@portal/core';
import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export interface SelectOption {
  value: string | number;
  label: string;
  /** The language of the label when it is not the page's (a language's own name: 'Español'), for screen readers. */
  lang?: string;
}

/** What a lookup item's display name is worked out from: its category, its key and the server's (English) value. */
export type LookupLabelItem = Pick<LookupItem, 'Category' | 'Key' | 'Value'>;
/** A lookup item's name as the page shows it (useLookupLabel). */
export type LookupLabel = (item: LookupLabelItem) => string;

/** 'Claim Status' to 'ClaimStatus': the lookup categories by their name in LookupCategory. */
const categoryKeys: ReadonlyMap<string, string> = new Map(Object.entries(LookupCategory).map(([key, name]) => [name, key]));

/** The kit's key of a lookup item's name: lookup.<the category's name in LookupCategory>.<Key> (lookup.ClaimStatus.8). */
export function lookupKey(category: string, key: number): string {
  return `lookup.${categoryKeys.get(category) ?? category}.${key}`;
}

/**
 * A lookup item's name in the page's language, with the kit namespace's `t`: the server sends its lookups in English,
 * and only what is shown is translated (the key goes back to the server as it came). An item the kit has no name for
 * (a key added on the server, a vendor's or a state's own name) shows the server's value.
 */
export function lookupLabel(t: TFunction<'kit'>, item: LookupLabelItem): string {
  return t(lookupKey(item.Category, item.Key), { defaultValue: item.Value });
}

/** lookupLabel with the kit's strings in the current language; the function changes when the language does. */
export function useLookupLabel(): LookupLabel {
  const { t } = useTranslation('kit');
  return useCallback((item: LookupLabelItem) => lookupLabel(t, item), [t]);
}

/** Each item's shown name by its key (a grid's cells, a detail's values). */
export function lookupNames(items: readonly LookupLabelItem[], label: LookupLabel): Map<number, string> {
  return new Map(items.map((item) => [item.Key, label(item)]));
}

/** The shown name of a category's item by its key; undefined while the lookup cache has no such item. */
export function findLookupLabel(items: readonly LookupItem[], category: string, key: number, label: LookupLabel): string | undefined {
  const item = items.find((i) => i.Category === category && i.Key === key);
  return item ? label(item) : undefined;
}

/** Options of one lookup category in server sort order, named in the page's language (useLookupLabel). */
export function lookupOptions(items: readonly LookupItem[], category: string, label: LookupLabel): SelectOption[] {
  return items
    .filter((item) => item.Category === category)
    .sort((a, b) => a.Sort - b.Sort)
    .map((item) => ({ value: item.Key, label: label(item) }));
}

/** The category's default key (IsDefault), for a form's defaultValues. */
export function lookupDefault(items: readonly LookupItem[], category: string): number | undefined {
  return items.find((item) => item.Category === category && item.IsDefault)?.Key;
}

/** A US state's, DC's or territory's name in the page's language, from its abbreviation (unknown: the abbreviation). */
export function stateName(t: TFunction<'kit'>, abbreviation: string): string {
  const state = US_STATES.find((s) => s.abbreviation === abbreviation);
  return state ? t(`state.${state.abbreviation}`, { defaultValue: state.name }) : abbreviation;
}

/** stateName with the kit's strings in the current language; the function changes when the language does. */
export function useStateName(): (abbreviation: string) => string {
  const { t } = useTranslation('kit');
  return useCallback((abbreviation: string) => stateName(t, abbreviation), [t]);
}

/** The states, DC and territories as options (the abbreviation is stored), named and sorted in the page's language. */
export function stateOptions(t: TFunction<'kit'>, language: string): SelectOption[] {
  const collator = new Intl.Collator(language);
  return US_STATES.map((s) => ({ value: s.abbreviation, label: stateName(t, s.abbreviation) })).sort((a, b) => collator.compare(a.label, b.label));
}
