import {
  createKeySchema,
  defineEndpoint,
  emailSchema,
  formatPhone,
  idSchema,
  isValidDob,
  MAX_ID,
  msg,
  requiredText,
  schemaText,
  US_STATES,
  validationMessages,
  ZIP_PATTERN,
} from '@portal/core';
import { z } from 'zod';

/** Spec 01 section 3 and 02 section 3: the phone a member prefers to be reached at. */
export const PREFERRED_CONTACTS = ['Home', 'Work', 'Mobile'] as const;
export type PreferredContact = (typeof PREFERRED_CONTACTS)[number];
/** Lookup 'PBM Vendor' keys 1, 2, 3. */
export const PBM_VENDORS = ['Helios', 'Express Scripts', 'Caremark'] as const;
export type PbmVendor = (typeof PBM_VENDORS)[number];
/** F, M, or X (another or not stated). */
export const GENDERS = ['F', 'M', 'X'] as const;
/** Spec 01 section 9 / 02 section 9: the default address type (Home). */
export const DEFAULT_ADDRESS_TYPE = 4;
/** Address Type lookup keys (1 Billing ... 5 Work). */
export const ADDRESS_TYPE_IDS = [1, 2, 3, 4, 5] as const;
/** The spec's phone prefix on messaging/request. */
export const MOBILE_PREFIX = 'M-';
/** Verification codes: digits, lifetime and wrong tries allowed per code. */
export const CODE_DIGITS = 6;
export const CODE_TTL_SECONDS = 10 * 60;
export const CODE_MAX_ATTEMPTS = 5;
/** How long after a confirmed code phone-validate?validated=true is accepted. */
export const VALIDATED_GRACE_SECONDS = 15 * 60;
/** Member list (spec 02 section 9): page sizes, default 20, sorted FirstName ASC, these statuses. */
export const MEMBER_LIST_PAGE_SIZES = [10, 20, 30, 50] as const;
export const MEMBER_LIST_STATUSES = ['Members', 'Pending', 'Terminated', 'All'] as const;
/** GET list?name= answers at most this many members. */
export const MEMBER_NAME_SEARCH_LIMIT = 20;

/** The server's messages, word for word where the spec gives them (their Spanish is in server/i18n/es.json). */
export const ProfileMessages = {
  stale: 'Someone else changed this profile; reload to see their change.',
  notFound: 'Member not found.',
  noProfile: 'This account has no member profile. Choose a member to act for first.',
  saved: 'Your profile has been saved.',
  mobileRequired: 'A mobile phone number is required.',
  homeRequired: 'A home phone number is required when it is the preferred contact.',
  workRequired: 'A work phone number is required when it is the preferred contact.',
  phoneInvalid: (phone: string) => msg('{{phone}} is not a valid phone number.', { phone: formatPhone(phone) }),
  phoneEditRefused: 'Only CareGuard and CareAssist members may change phone numbers.',
  /** A member's own save carries another e-mail address: it changes only on the account page (password, link to the new address, notice to the old one). */
  emailChangeElsewhere:
    'Your e-mail address is changed on the My account page, under E-mail address: it needs your password and a link sent to the new address.',
  codeSent: (phone: string) => msg('A verification code was sent to {{phone}}.', { phone: formatPhone(phone) }),
  codeNotValid: 'Code not valid.',
  codeConfirmed: 'Code confirmed.',
  notMobile: 'This number cannot receive text messages. Please enter a mobile number.',
  saveMobileFirst: 'Save your profile with this mobile number before verifying it.',
  tooManyCodes: (minutes: number) => msg('Too many verification codes were requested. Please try again in {{minutes}} minute(s).', { minutes }),
  tooManyChecks: (minutes: number) => msg('Too many phone checks. Please try again in {{minutes}} minute(s).', { minutes }),
  verifyFirst: 'Confirm the code sent to the mobile phone before marking it verified.',
  terminated: 'Your membership has been terminated.',
  reactivated: 'Your membership has been reactivated.',
  alreadyTerminated: 'The membership is already terminated.',
  notTerminated: 'The membership is not terminated.',
  terminatedByStaff: 'Your membership was ended by our support team, so it can be reactivated only by them. Please contact support.',
  sessionEnded: 'Your session has ended. Please sign in again.',
  addressNotFound: 'Address not found.',
  addressSaved: 'The address has been saved.',
  addressStale: 'Someone else changed this address; reload to see their change.',
  /** A create or update that would give the member a second copy of an address they have (server/addresses.ts, addressKey). */
  addressDuplicate: 'This address is already in your list.',
  /** The same, to support staff adding or changing a member's address by id (the details-addresses tab). */
  addressDuplicateSupport: "This address is already in the member's list.",
} as const;

const nullableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => v || null);
/** Ten digits, whatever punctuation came with them; more or fewer digits are refused, never cut. */
const tenDigits = z
  .string()
  .max(40)
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().length(10, validationMessages.phone));
const mobileDigits = tenDigits.refine((v) => !v.startsWith('0'), validationMessages.mobileStartsWithZero);
const optionalPhone = z
  .union([z.literal(''), z.null(), tenDigits])
  .optional()
  .transform((v) => v || null);
const optionalMobile = z
  .union([z.literal(''), z.null(), mobileDigits])
  .optional()
  .transform((v) => v || null);
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const isoTime = z.iso.datetime();

/** The member record on the wire (spec names). Phones are digits only; DOBStr is MM/DD/YYYY for display. */
export const memberRecordSchema = z.strictObject({
  MemberID: z.number().int().positive(),
  MemberNumber: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string().nullable(),
  DateOfBirth: isoDay.nullable(),
  DOBStr: z.string().nullable(),
  Gender: z.string().nullable(),
  HomePhone: z.string().nullable(),
  WorkPhone: z.string().nullable(),
  MobilePhone: z.string().nullable(),
  PreferredContactNumber: z.enum(PREFERRED_CONTACTS),
  IsPhoneValidated: z.boolean(),
  IsMSA: z.boolean(),
  PBMVendor: z.enum(PBM_VENDORS).nullable(),
  ApprovedDate: isoTime.nullable(),
  TerminationDate: isoTime.nullable(),
  /** Not in the spec: who ended the membership ('member' or 'staff'; null when not terminated). A member reactivates only their own. */
  TerminatedBy: z.enum(['member', 'staff']).nullable(),
  Version: z.number().int(),
});
export type MemberRecordWire = z.infer<typeof memberRecordSchema>;
/**
 * The member answer: the record and IsMobileRequired, computed on the server from the member's own login roles
 * (CareGuard, CareAssist: spec 01 section 5), whoever reads it. True: the mobile is always required and the
 * preferred contact is forced to Mobile; the form follows this flag, not the signed-in user's roles.
 */
export const memberSchema = memberRecordSchema.extend({ IsMobileRequired: z.boolean() });
export type Member = z.infer<typeof memberSchema>;

/**
 * Date of birth: YYYY-MM-DD, before now and after the year 1900 (spec 01 section 5; the kernel's isValidDob). The
 * server does not know the member's time zone: today is the day in the first zone to reach it (UTC+14), so a member
 * east of UTC just after midnight may give today's date; the form checks the member's own today.
 */
const EARLIEST_TODAY_ZONE = 'Pacific/Kiritimati';
const dobField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, validationMessages.dateInvalid)
  .refine((v) => {
    const t = Date.parse(`${v}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().startsWith(v) && isValidDob(v, new Date(), EARLIEST_TODAY_ZONE);
  }, validationMessages.dob);

/** The fields a member edits on My Profile. */
export const memberFieldsSchema = z.object({
  FirstName: requiredText.pipe(z.string().max(100)),
  LastName: requiredText.pipe(z.string().max(100)),
  Email: emailSchema,
  DateOfBirth: z
    .union([z.literal(''), z.null(), dobField])
    .optional()
    .transform((v) => v || null),
  Gender: z
    .union([z.literal(''), z.null(), z.enum(GENDERS)])
    .optional()
    .transform((v) => v || null),
  HomePhone: optionalPhone,
  WorkPhone: optionalPhone,
  MobilePhone: optionalMobile,
  PreferredContactNumber: z.enum(PREFERRED_CONTACTS),
  PBMVendor: z
    .union([z.null(), z.enum(PBM_VENDORS)])
    .optional()
    .transform((v) => v ?? null),
});

export const memberSaveSchema = memberFieldsSchema.extend({
  MemberID: idSchema,
  Version: z.number().int().min(0).max(MAX_ID, 'is too large'),
});
export type MemberSave = z.input<typeof memberSaveSchema>;

const stateCodes = US_STATES.map((s) => s.abbreviation) as [string, ...string[]];

export const addressFieldsSchema = z.object({
  Address1: requiredText.pipe(z.string().max(200)),
  Address2: nullableText(200),
  City: requiredText.pipe(z.string().max(100)),
  State: z.enum(stateCodes, { error: validationMessages.required }),
  Zip: z.string().trim().regex(ZIP_PATTERN, 'Enter a 5-digit ZIP code (or ZIP+4).'),
  AddressTypeID: z
    .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)])
    .optional()
    .transform((v) => v ?? DEFAULT_ADDRESS_TYPE),
  IsCurrent: z.boolean().optional().default(false),
  /** The grid's selection flag: accepted, never stored. */
  IsSelected: z.boolean().optional(),
});

/** Registration wizard step 1 (spec 01 section 5): the profile plus the current address. */
export const registrationSaveSchema = memberSaveSchema.extend({
  MobilePhone: mobileDigits,
  Address1: requiredText.pipe(z.string().max(200)),
  Address2: nullableText(200),
  City: requiredText.pipe(z.string().max(100)),
  State: z.enum(stateCodes, { error: validationMessages.required }),
  Zip: z.string().trim().regex(ZIP_PATTERN, 'Enter a 5-digit ZIP code (or ZIP+4).'),
  /**
   * Not in the spec: the Version of the current address the form showed (null: it showed none). Sent, a save over an
   * address someone changed (or added) since is refused (409) instead of overwriting it; left out, the address is
   * written as it is now.
   */
  AddressVersion: z.number().int().min(0).max(MAX_ID, 'is too large').nullable().optional(),
});

export const addressSchema = z.strictObject({
  AddressID: z.number().int().positive(),
  MemberID: z.number().int().positive(),
  Address1: z.string(),
  Address2: z.string().nullable(),
  City: z.string(),
  State: z.string(),
  Zip: z.string(),
  AddressTypeID: z.number().int(),
  IsCurrent: z.boolean(),
  IsSelected: z.boolean(),
  Version: z.number().int(),
});
export type Address = z.infer<typeof addressSchema>;
/** The Data of a 409 refusing a duplicate address: the address the member already has. A stale Version's 409 carries none. */
export const addressDuplicateSchema = z.strictObject({ DuplicateAddressID: z.number().int().positive() });

/**
 * createAddress (the member's and support's). IdempotencyKey (ours, not in the spec): one key per submission of the
 * new-address form; the create sent again with it (its answer was lost) answers the address it added and adds none.
 */
export const createAddressSchema = addressFieldsSchema.extend({ MemberID: idSchema, IdempotencyKey: createKeySchema.nullish() });
export const updateAddressSchema = addressFieldsSchema.extend({
  MemberID: idSchema,
  AddressID: idSchema,
  Version: z.number().int().min(0).max(MAX_ID, 'is too large'),
});
export type AddressInput = z.input<typeof createAddressSchema>;

/** A search box's text: trimmed, at most 100 characters (the kit's search box stops there), refused in the product's words. */
const searchText = z
  .string()
  .trim()
  .max(100, schemaText('must be at most {{max}} characters', { max: 100 }))
  .optional();

export const ADDRESS_SORT_COLUMNS = ['Address1', 'City', 'State', 'Zip', 'AddressTypeID', 'IsCurrent'] as const;
export const addressSearchSchema = z.object({
  PageIndex: z.number().int().min(0).max(100_000).default(0),
  PageSize: z.number().int().min(1).max(100).default(20),
  SortColumn: z.enum(ADDRESS_SORT_COLUMNS).default('IsCurrent'),
  SortOrder: z.enum(['ASC', 'DESC']).default('DESC'),
  Query: searchText,
});
export const addressPageSchema = z.strictObject({ Items: z.array(addressSchema), ItemCount: z.number().int().nonnegative() });

export const MEMBER_SORT_COLUMNS = ['FirstName', 'LastName', 'MemberNumber', 'Email', 'ApprovedDate'] as const;
export const memberListSchema = z.object({
  PageIndex: z.number().int().min(0).max(100_000).default(0),
  PageSize: z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(50)]).default(20),
  SortColumn: z.enum(MEMBER_SORT_COLUMNS).default('FirstName'),
  SortOrder: z.enum(['ASC', 'DESC']).default('ASC'),
  Status: z.enum(MEMBER_LIST_STATUSES).default('Members'),
  SearchString: searchText,
});
export const memberSummarySchema = z.strictObject({
  MemberID: z.number().int().positive(),
  MemberNumber: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string().nullable(),
  Brand: z.string(),
  ApprovedDate: isoTime.nullable(),
  TerminationDate: isoTime.nullable(),
});
export const memberPageSchema = z.strictObject({ Items: z.array(memberSummarySchema), ItemCount: z.number().int().nonnegative() });

export const terminationSchema = z.strictObject({ isTerminated: z.boolean(), terminationPeriod: z.number().int(), isMsa: z.boolean() });
export const sessionTokenSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number(),
  refresh_token: z.string(),
  form_token: z.string(),
});
/** Terminate and reactivate answer the member record; IsMobileRequired is optional there until that route computes it too. */
export const terminationChangeSchema = z.strictObject({
  Member: memberSchema,
  Termination: terminationSchema,
  Token: sessionTokenSchema,
});

/** 'M-' and ten digits (the spec's prefix), or the ten digits alone. */
const prefixedPhone = z
  .string()
  .trim()
  .max(40)
  .transform((v) => (v.startsWith(MOBILE_PREFIX) ? v.slice(MOBILE_PREFIX.length) : v))
  .pipe(mobileDigits);

export const codeRequestSchema = z.object({ MemberId: idSchema, PhoneNumber: prefixedPhone, Type: z.enum(['SMS']).default('SMS') });
export const codeVerifySchema = z.object({
  MemberId: idSchema,
  PhoneNumber: prefixedPhone,
  Code: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/, 'Enter the digits of the code.'),
});
export const phoneCheckSchema = z.object({ PhoneNumber: z.string().trim().max(40) });
export const phoneCheckResultSchema = z.strictObject({
  PhoneNumber: z.string().nullable(),
  LineType: z.enum(['mobile', 'landline', 'voip']).nullable(),
  Carrier: z.string().nullable(),
});

const memberIdParams = z.object({ id: idSchema });

export const ProfileApi = {
  /** The signed-in member's own record (or the impersonated member's). */
  loadOwn: defineEndpoint({ method: 'GET', path: '/api/members/load', response: memberSchema }),
  /** One member by id: a member only their own (else 404); support staff any member account. */
  load: defineEndpoint({ method: 'GET', path: '/api/members/load/:id', params: memberIdParams, response: memberSchema }),
  /** Support's member list: filter, sort and page. */
  list: defineEndpoint({ method: 'POST', path: '/api/members/list', body: memberListSchema, response: memberPageSchema }),
  /** Support's quick search by name or member number. */
  searchByName: defineEndpoint({
    method: 'GET',
    path: '/api/members/list',
    query: z.object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(100, schemaText('must be at most {{max}} characters', { max: 100 })),
    }),
    response: z.array(memberSummarySchema),
  }),
  save: defineEndpoint({ method: 'POST', path: '/api/members/save', body: memberSaveSchema, response: memberSchema }),
  registrationSave: defineEndpoint({
    method: 'POST',
    path: '/api/members/registration-save',
    body: registrationSaveSchema,
    response: z.strictObject({ Member: memberSchema, Address: addressSchema }),
  }),
  terminate: defineEndpoint({ method: 'POST', path: '/api/members/terminate', response: terminationChangeSchema }),
  reactivate: defineEndpoint({ method: 'POST', path: '/api/members/reactivate', response: terminationChangeSchema }),
  phoneValidate: defineEndpoint({
    method: 'POST',
    path: '/api/members/phone-validate',
    query: z.object({ validated: z.enum(['true', 'false']).transform((v) => v === 'true') }),
    response: memberSchema,
  }),
  loadAddresses: defineEndpoint({ method: 'GET', path: '/api/members/addresses/loadAddresses', response: z.array(addressSchema) }),
  searchAddresses: defineEndpoint({ method: 'POST', path: '/api/members/addresses/searchAddresses', body: addressSearchSchema, response: addressPageSchema }),
  createAddress: defineEndpoint({ method: 'POST', path: '/api/members/addresses/createAddress', body: createAddressSchema, response: addressSchema }),
  updateAddress: defineEndpoint({ method: 'POST', path: '/api/members/addresses/updateAddress', body: updateAddressSchema, response: addressSchema }),
  requestCode: defineEndpoint({ method: 'POST', path: '/api/messaging/request', body: codeRequestSchema, response: z.null() }),
  verifyCode: defineEndpoint({
    method: 'POST',
    path: '/api/messaging/verify',
    body: codeVerifySchema,
    response: z.strictObject({ CodeVerified: z.boolean() }),
  }),
  phoneCheck: defineEndpoint({ method: 'POST', path: '/api/messaging/phone-check', body: phoneCheckSchema, response: phoneCheckResultSchema }),
  /** Support's calls on a member's addresses by member id (spec 02 section 7), for the details-addresses tab. */
  supportAddresses: defineEndpoint({
    method: 'POST',
    path: '/api/support/members/addresses/:id',
    params: memberIdParams,
    body: addressSearchSchema,
    response: addressPageSchema,
  }),
  supportCreateAddress: defineEndpoint({
    method: 'POST',
    path: '/api/support/members/addresses/createAddress',
    body: createAddressSchema,
    response: addressSchema,
  }),
  supportUpdateAddress: defineEndpoint({
    method: 'POST',
    path: '/api/support/members/addresses/updateAddress',
    body: updateAddressSchema,
    response: addressSchema,
  }),
} as const;
