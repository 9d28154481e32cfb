import {
  capNumber,
  defineEndpoint,
  dobSchema,
  emailSchema,
  isoDateSchema,
  MAX_ID,
  maskedDateSchema,
  moneySchema,
  type PasswordRule,
  parseMoney,
  passwordPolicySchema,
  phoneSchema,
  requiredText,
  schemaText,
  ssnSchema,
  validationMessages,
  withFieldsMatch,
} from '@portal/core';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------
// Sample transactions (the remote grid)

/** Columns of the sample rows; also the grid's column ids, the sort whitelist and the filter keys. */
export const ROW_COLUMNS = ['Id', 'Name', 'City', 'State', 'Amount', 'Date', 'Status', 'Category'] as const;
export type RowColumn = (typeof ROW_COLUMNS)[number];

export const ROW_STATUSES = ['Pending', 'Authorized', 'Captured', 'Settled', 'Declined', 'Refunded', 'Voided'] as const;
export const ROW_CATEGORIES = ['Medical', 'Pharmacy', 'Dental', 'Vision', 'Equipment', 'Nursing', 'Misc'] as const;

/** Rows the migration generates (deterministic: the same data on every database). */
export const SAMPLE_ROW_COUNT = 12_000;

/** Spec 02 section 9, support transactions: sizes 10/20/30/50, default 20, newest first. */
export const ROW_PAGE_SIZES = [10, 20, 30, 50] as const;
export const ROW_DEFAULT_PAGE_SIZE = 20;
/** The grid's "select all across pages" loads up to this many ids in one page request. */
export const ROW_MAX_PAGE_SIZE = 1000;

export const sampleRowSchema = z.object({
  Id: z.number().int(),
  Name: z.string(),
  City: z.string(),
  State: z.string(),
  /** Dollars with 2 decimals (stored as integer cents). */
  Amount: z.number(),
  /** 'YYYY-MM-DD'. */
  Date: z.string(),
  Status: z.enum(ROW_STATUSES),
  Category: z.enum(ROW_CATEGORIES),
});
export type SampleRow = z.infer<typeof sampleRowSchema>;
export const sampleRowsResponse = z.object({ Items: z.array(sampleRowSchema), ItemCount: z.number().int().nonnegative() });
export type SampleRowsResponse = z.infer<typeof sampleRowsResponse>;

const sortOrder = z.enum(['asc', 'desc']);
/** The largest Amount filter in cents either way: the amount column is integer cents (a PostgreSQL integer). */
export const ROW_MAX_AMOUNT_CENTS = MAX_ID;
const maxAmount = (ROW_MAX_AMOUNT_CENTS / 100).toFixed(2);
/**
 * Column filters: name and city match text anywhere; state, status and category whole values; Amount is a minimum in
 * dollars; Date takes YYYY, YYYY-MM or YYYY-MM-DD; Id an exact number. A filter that cannot match gives no rows, except
 * an Amount that reads as money past the column ($21,474,836.47 either way): a 400, not a failing query. The grid's
 * rows and its export share these filters.
 */
const filters = z.partialRecord(z.enum(ROW_COLUMNS), z.string().trim().max(100)).superRefine((f, ctx) => {
  const dollars = f.Amount ? parseMoney(f.Amount) : null;
  if (dollars !== null && Math.abs(Math.round(dollars * 100)) > ROW_MAX_AMOUNT_CENTS)
    ctx.addIssue({
      code: 'custom',
      path: ['Amount'],
      message: schemaText('must be an amount from {{min}} to {{max}}', { min: `-${maxAmount}`, max: maxAmount }),
    });
});
const search = z.string().trim().max(100);

export const rowsRequestSchema = z.object({
  PageIndex: z.number().int().min(0).max(1_000_000).default(0),
  PageSize: z.number().int().min(1).max(ROW_MAX_PAGE_SIZE).default(ROW_DEFAULT_PAGE_SIZE),
  SortColumn: z.enum(ROW_COLUMNS).nullish(),
  SortOrder: sortOrder.default('asc'),
  Search: search.default(''),
  Filters: filters.default({}),
});
export type RowsRequest = z.input<typeof rowsRequestSchema>;

/** The DataGrid's remote export body (ExportRequest in the kit). */
export const exportRequestSchema = z.object({
  format: z.enum(['csv', 'xlsx']),
  sortColumn: z.enum(ROW_COLUMNS).nullish(),
  sortOrder: sortOrder.default('asc'),
  filters: filters.default({}),
  search: search.default(''),
  columns: z
    .array(z.object({ id: z.enum(ROW_COLUMNS), header: z.string().max(200) }))
    .min(1)
    .max(ROW_COLUMNS.length),
});
export type ExportRequestBody = z.input<typeof exportRequestSchema>;

// ---------------------------------------------------------------------------------------------------------
// The form

/**
 * Password policy of spec 01 section 5 as server-style rules (message plus pattern). The messages are i18n keys of the
 * 'kit-gallery' namespace; the page translates them for the checklist.
 */
export const GALLERY_PASSWORD_RULES: readonly PasswordRule[] = [
  { Message: 'password.length', Validator: '^.{8,}$' },
  { Message: 'password.letter', Validator: '[A-Za-z]' },
  { Message: 'password.digit', Validator: '\\d' },
  { Message: 'password.allowed', Validator: '^[A-Za-z\\d!$%@#£€*?&]*$' },
];

/** Bounds of the masked service date (exclusive) and the picker's appointment date (inclusive). */
export const SERVICE_DATE_AFTER = '12/31/2019';
export const SERVICE_DATE_BEFORE = '01/01/2031';
export const APPOINTMENT_MIN = '2020-01-01';
export const APPOINTMENT_MAX = '2035-12-31';
/** Spec 02 section 9: default units 30; the field caps at 100. */
export const UNITS_MAX = 100;
export const UNITS_DEFAULT = 30;
/** Spec 02 section 9: upload queue 10 files, 1 GB each. */
export const MAX_FILES = 10;
export const MAX_FILE_BYTES = 1024 ** 3;
export const CONTACT_PREFERENCES = ['Email', 'Phone', 'Mail'] as const;

const m = validationMessages;
const msg = {
  agree: 'kit-gallery:validation.agree',
  tooManyFiles: 'kit-gallery:validation.tooManyFiles',
  fileTooLarge: 'kit-gallery:validation.fileTooLarge',
  appointmentRange: 'kit-gallery:validation.appointmentRange',
} as const;

/** A chosen file as the form keeps it: a browser File passes (it has name and size); the wire carries these two. */
const fileMeta = z.object({ name: z.string().min(1).max(255), size: z.number().int().nonnegative() });

/**
 * The gallery form: one field of each kit kind. Every transform is idempotent, so the parsed values the page submits
 * pass the same schema again on the server.
 */
export const galleryFormSchema = withFieldsMatch(
  z.object({
    FullName: requiredText.pipe(z.string().max(100)),
    Email: emailSchema,
    Password: passwordPolicySchema(GALLERY_PASSWORD_RULES),
    ConfirmPassword: requiredText,
    Phone: phoneSchema,
    Ssn: ssnSchema,
    Dob: dobSchema,
    ServiceDate: maskedDateSchema({ after: SERVICE_DATE_AFTER, before: SERVICE_DATE_BEFORE }),
    AppointmentDate: isoDateSchema.refine((v) => v >= APPOINTMENT_MIN && v <= APPOINTMENT_MAX, msg.appointmentRange),
    Amount: moneySchema,
    Units: z.number({ error: m.required }).transform((n) => capNumber(n, UNITS_MAX, 1)),
    TransactionType: z.number({ error: m.required }).int(),
    State: z.string({ error: m.required }).length(2, m.required),
    Agree: z.literal(true, { error: msg.agree }),
    ContactPreference: z.enum(CONTACT_PREFERENCES, { error: m.required }),
    Files: z
      .array(fileMeta.refine((f) => f.size <= MAX_FILE_BYTES, msg.fileTooLarge).transform((f) => ({ name: f.name, size: f.size })))
      .max(MAX_FILES, msg.tooManyFiles),
  }),
  'Password',
  'ConfirmPassword',
);
export type GalleryFormInput = z.input<typeof galleryFormSchema>;
export type GalleryFormValues = z.output<typeof galleryFormSchema>;

export const galleryFormResponse = z.object({ FullName: z.string(), Fields: z.number().int(), Files: z.number().int() });
export type GalleryFormResponse = z.infer<typeof galleryFormResponse>;

export const KitGalleryApi = {
  /** A page of the sample rows: sorted, filtered and searched in SQL. */
  rows: defineEndpoint({ method: 'POST', path: '/api/kit-gallery/rows', body: rowsRequestSchema, response: sampleRowsResponse }),
  /** The DataGrid's remote export, streamed as CSV or XLSX. */
  exportRows: defineEndpoint({ method: 'POST', path: '/api/kit-gallery/rows/export', body: exportRequestSchema, answer: 'file' }),
  form: defineEndpoint({ method: 'POST', path: '/api/kit-gallery/form', body: galleryFormSchema, response: galleryFormResponse }),
} as const;
