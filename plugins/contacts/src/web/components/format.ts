import { formatPhone, type LookupItem } from '@portal/core';
import type { LookupLabel } from '@portal/web/kit';
import type { TFunction } from 'i18next';
import type { Contact } from '../../contract';

/** The name as the list shows it ('Last, First'), or 'Add New Contact' for a new, empty one. */
export const shownName = (t: TFunction, c: { FirstName?: string | null; LastName?: string | null } | null) => {
  const name = [c?.LastName?.trim(), c?.FirstName?.trim()].filter(Boolean).join(', ');
  return name || t('contacts:addNew');
};

/** A lookup value as the page shows it (the kit's name in the page's language), or '' for none or one not in the cache. */
export const lookupValue = (label: LookupLabel, items: readonly LookupItem[], category: string, key: number | null) => {
  const item = key === null ? undefined : items.find((i) => i.Category === category && i.Key === key);
  return item ? label(item) : '';
};

export const contactTypeName = (t: TFunction, id: number | null) => (id === null ? '' : t(`contacts:type.${id}`));

export const phoneText = (c: Contact) => (c.Phone ? formatPhone(c.Phone) : '');
