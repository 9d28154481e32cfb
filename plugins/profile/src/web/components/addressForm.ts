import { isEnvelope, validationMessages as m, US_STATES, zipSchema } from '@portal/core';
import { z } from 'zod';
import { type Address, addressDuplicateSchema, DEFAULT_ADDRESS_TYPE } from '../../contract';

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

/**
 * The address a refused save says the member already has (a 409 whose Data names it), else null. A stale Version's
 * 409 names none: that one is said with a Reload; a duplicate is said as the form says any other refusal (the server's
 * words above the fields), the typed values kept, since reloading would not change it.
 */
export function duplicateAddressOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, body } = error as { status?: unknown; body?: unknown };
  if (status !== 409 || !isEnvelope(body)) return null;
  const parsed = addressDuplicateSchema.safeParse(body.Data);
  return parsed.success ? parsed.data.DuplicateAddressID : null;
}
