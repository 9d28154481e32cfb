import { validationMessages as m, US_STATES, zipSchema } from '@portal/core';
import { z } from 'zod';
import { type Address, DEFAULT_ADDRESS_TYPE } from '../../contract';

/** The address form's schema. */
export const addressSchema = z.object({
  Address1: z.string().trim().min(1, m.required).max(200),
  Address2: z.string().max(200),
  City: z.string().trim().min(1, m.required).max(100),
  State: z
    .string()
    .nullable()
    .refine((v) => v !== null && US_STATES.some((s) => s.abbreviation === v), m.required),
  Zip: zipSchema,
  AddressTypeID: z.number().nullable(),
  IsCurrent: z.boolean(),
});
export type AddressValues = z.infer<typeof addressSchema>;

/** The form's values for an address (null: a new one, empty). */
export const addressValuesOf = (address: Address | null): AddressValues => ({
  Address1: address?.Address1 ?? '',
  Address2: address?.Address2 ?? '',
  City: address?.City ?? '',
  State: address?.State ?? null,
  Zip: address?.Zip ?? '',
  AddressTypeID: address?.AddressTypeID ?? DEFAULT_ADDRESS_TYPE,
  IsCurrent: address?.IsCurrent ?? false,
});

/**
 * The address the Addresses view's panel shows for the chosen one (`open`): while an edit of it is open, the record
 * that edit started from (even when the list has a newer Version of it, or no longer has it); else the list's.
 * Null: nothing to show (a new address, or one not in the list).
 */
export function panelAddress(open: number | 'new' | null, editedFrom: Address | null | undefined, list: readonly Address[] | undefined): Address | null {
  if (typeof open !== 'number') return null;
  if (editedFrom?.AddressID === open) return editedFrom;
  return list?.find((a) => a.AddressID === open) ?? null;
}
