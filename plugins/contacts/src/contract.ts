import { createKeySchema, defineEndpoint, emailSchema, idSchema, msg, pageIndexSchema, phoneSchema, schemaText, US_STATES } from '@portal/core';
import { z } from 'zod';

/**
 * The contacts contract (spec 02 sections 3, 7 and 9): a member's people to reach (family, caregivers,
 * physicians ...). Ids are positive integers (`idSchema`); a contact carries its Version, and an update with a
 * stale one is refused with 409.
 */

/** Page sizes offered and the default of 100 for contacts (spec 02 section 9). */
export const CONTACT_PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const CONTACT_PAGE_SIZE = 100;
/**
 * Contact types. The lookup categories of spec 02 section 3 have no 'Contact Type', so the plugin owns this
 * short list; the web shows each under the key `contacts:type.<id>`.
 */
export const CONTACT_TYPE_IDS = [1, 2, 3, 4, 5, 6] as const;
/**
 * Each contact type's name in English, as the grid shows it (the web's `contacts:type.<id>`): the server's message
 * keys, translated by its catalogue, so a search word that begins a type's name finds the contacts of that type.
 */
export const CONTACT_TYPE_NAMES: Readonly<Record<(typeof CONTACT_TYPE_IDS)[number], string>> = {
  1: 'Family',
  2: 'Caregiver',
  3: 'Physician',
  4: 'Pharmacy',
  5: 'Attorney',
  6: 'Other',
};
/** Keys of the Address Type (1-5), State Code (1 per state in US_STATES order) and Phone Type (1-3) lookups. */
export const ADDRESS_TYPE_IDS = [1, 2, 3, 4, 5] as const;
export const PHONE_TYPE_IDS = [1, 2, 3] as const;
export const STATE_CODE_COUNT = US_STATES.length;
/** Defaults of the lookups: Home address (4), Mobile phone (3). */
export const DEFAULT_ADDRESS_TYPE_ID = 4;
export const DEFAULT_PHONE_TYPE_ID = 3;
export const STALE_CONTACT_MESSAGE = 'This contact was changed by someone else. Reload it and make your change again.';
export const CONTACT_NOT_FOUND = 'The contact was not found.';
/**
 * A create (or an update) that would give the member a second copy of a contact they have (the same type, the same
 * name, the same e-mail or phone: see `sameContact` in the server's duplicates.ts) is refused with 409 and these words;
 * the answer's Data names the contact already there (`contactDuplicateSchema`).
 */
export const DUPLICATE_CONTACT_MESSAGE = 'This contact is already in your list.';
/** The Data of a 409 refusing a duplicate: the contact the member already has. A stale Version's 409 carries none. */
export const contactDuplicateSchema = z.strictObject({ DuplicateContactID: z.number().int().positive() });
export type ContactDuplicate = z.infer<typeof contactDuplicateSchema>;

const optText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), z.string().max(max, schemaText('must be at most {{max}} characters', { max })).nullish());
const name = (max: number) =>
  z.string({ error: 'is required' }).trim().min(1, 'is required').max(max, schemaText('must be at most {{max}} characters', { max }));
const lookupKey = (ids: readonly number[], what: string) =>
  z.preprocess(
    (v) => (v === '' || v === 0 || v === '0' ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
    z
      .number({ error: schemaText('must be a {{what}} key', { what: msg(what) }) })
      .int()
      .refine((n) => ids.includes(n), schemaText('is not a known {{what}}', { what: msg(what) }))
      .nullish(),
  );
const stateKey = z.preprocess(
  (v) => (v === '' || v === 0 || v === '0' ? null : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z.number({ error: 'must be a state code key' }).int().min(1, 'is not a known state code').max(STATE_CODE_COUNT, 'is not a known state code').nullish(),
);

/** The editable fields of a contact; optional ones may be absent, null or ''. */
const contactFields = {
  FirstName: name(50),
  LastName: name(50),
  Phone: z.preprocess((v) => (v === '' ? null : v), phoneSchema.nullish()),
  Email: z.preprocess((v) => (v === '' ? null : v), emailSchema.pipe(z.string().max(254, 'must be at most 254 characters')).nullish()),
  ContactTypeID: lookupKey(CONTACT_TYPE_IDS, 'contact type'),
  PhoneTypeID: lookupKey(PHONE_TYPE_IDS, 'phone type'),
  AddressTypeID: lookupKey(ADDRESS_TYPE_IDS, 'address type'),
  Address1: optText(100),
  Address2: optText(100),
  City: optText(60),
  StateCodeID: stateKey,
  Zip: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || null : v),
    z
      .string()
      .regex(/^\d{5}(-\d{4})?$/, 'must be a ZIP code (12345 or 12345-6789)')
      .nullish(),
  ),
};

export const contactCreateSchema = z.object({
  ...contactFields,
  /**
   * Ours, not the spec's: one key per new contact, sent again unchanged when the create is retried, so a create whose
   * answer was lost adds its contact once (the contact it made is answered again).
   */
  IdempotencyKey: createKeySchema.nullish(),
});
export type ContactCreate = z.infer<typeof contactCreateSchema>;
export const contactUpdateSchema = z.object({ ContactID: idSchema, Version: idSchema, ...contactFields });
export type ContactUpdate = z.infer<typeof contactUpdateSchema>;

export const contactSchema = z.strictObject({
  ContactID: z.number().int().positive(),
  MemberID: z.number().int().positive(),
  FirstName: z.string(),
  LastName: z.string(),
  /** 'Last, First' as the list shows it. */
  Name: z.string(),
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  ContactTypeID: z.number().int().nullable(),
  PhoneTypeID: z.number().int().nullable(),
  AddressTypeID: z.number().int().nullable(),
  Address1: z.string().nullable(),
  Address2: z.string().nullable(),
  City: z.string().nullable(),
  StateCodeID: z.number().int().nullable(),
  Zip: z.string().nullable(),
  Version: z.number().int().positive(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactSearchSchema = z.object({
  /** Part of the name, e-mail or phone, any case. */
  Query: optText(100),
  PageIndex: pageIndexSchema,
  PageSize: z.coerce
    .number()
    .int()
    .refine((n) => (CONTACT_PAGE_SIZES as readonly number[]).includes(n), schemaText('must be one of {{values}}', { values: CONTACT_PAGE_SIZES.join(', ') }))
    .default(CONTACT_PAGE_SIZE),
});
export type ContactSearch = z.infer<typeof contactSearchSchema>;
export const contactSearchResultSchema = z.strictObject({ Items: z.array(contactSchema), ItemCount: z.number().int().nonnegative() });
export type ContactSearchResult = z.infer<typeof contactSearchResultSchema>;

/** The name as the list shows it: 'Last, First' (either alone when the other is empty). */
export const contactDisplayName = (c: { FirstName?: string | null; LastName?: string | null }): string =>
  [c.LastName?.trim(), c.FirstName?.trim()].filter(Boolean).join(', ');

export const ContactsApi = {
  /** The contacts of the member the request acts for (own, or impersonated). */
  search: defineEndpoint({ method: 'POST', path: '/api/contacts/search', body: contactSearchSchema, response: contactSearchResultSchema }),
  /** Support: a named member's contacts. */
  searchForMember: defineEndpoint({
    method: 'POST',
    path: '/api/contacts/search/:memberId',
    params: z.object({ memberId: idSchema }),
    body: contactSearchSchema,
    response: contactSearchResultSchema,
  }),
  getById: defineEndpoint({ method: 'GET', path: '/api/contacts/getById/:id', params: z.object({ id: idSchema }), response: contactSchema }),
  /** Support: one contact of a named member. */
  getByIdForMember: defineEndpoint({
    method: 'GET',
    path: '/api/contacts/getById/:memberId/:id',
    params: z.object({ memberId: idSchema, id: idSchema }),
    response: contactSchema,
  }),
  create: defineEndpoint({ method: 'POST', path: '/api/contacts/create', body: contactCreateSchema, response: contactSchema }),
  update: defineEndpoint({ method: 'POST', path: '/api/contacts/update', body: contactUpdateSchema, response: contactSchema }),
} as const;
