import { formatPhone, type LookupItem } from '@portal/core';
import type { TFunction } from 'i18next';
import type { Contact } from '../../contract';

/** The name as the list shows it ('Last, First'), or 'Add New Contact' for a new, empty one. */
export const shownName = (t: TFunction, c: { FirstName?: string | null; LastName?: string | null } | null) => {
  const name = [c?.LastName?.trim(), c?.FirstName?.trim()].filter(Boolean).join(', ');
  return name || t('contacts:addNew');
};

export const lookupValue = (items: readonly LookupItem[], category: string, key: number | null) =>
  key === null ? '' : (items.find((i) => i.Category === category && i.Key === key)?.Value ?? '');

export const contactTypeName = (t: TFunction, id: number | null) => (id === null ? '' : t(`contacts:type.${id}`));

export const phoneText = (c: Contact) => (c.Phone ? formatPhone(c.Phone) : '');
