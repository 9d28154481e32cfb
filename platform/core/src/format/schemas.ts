import { z } from 'zod';
import { schemaText } from '../text';
import { parseIsoDay } from './calendarDay';
import { onlyDigits } from './digits';
import { type DateBounds, type MaskedDateError, parseMaskedDate, validateMaskedDate } from './maskedDate';
import { validationMessages as m } from './messages';
import { parseMoney, roundMoney } from './money';
import { capNumber } from './numberCap';
import { evaluatePasswordPolicy, type PasswordRule, RESET_PASSWORD_PATTERN } from './passwordPolicy';
import { PHONE_DIGITS } from './phone';
import { fieldsMatch, isEmail, isValidDob } from './rules';
import { SSN_DIGITS } from './ssn';

/** Shared zod schemas: web forms and server handlers validate with the same rules. */

export const requiredText = z.string().trim().min(1, m.required);

/** The largest id: ids are PostgreSQL integer (serial) keys. */
export const MAX_ID = 2_147_483_647;

/**
 * An id (a row key): a positive integer written in decimal and nothing else. Takes a JSON number that is a
 * whole number from 1 to MAX_ID, or text of decimal digits only (path, query and form values), and gives
 * the number. Refuses booleans, arrays, signs, exponents, hex, fractions ('13.0') and empty text.
 */
export const idSchema = z.union([z.number(), z.string()], { error: 'must be an id (a positive whole number)' }).transform((value, ctx) => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (typeof value === 'string' && !/^\d+$/.test(value)) return refuse('must be an id written in decimal digits only');
  const n = Number(value);
  if (!Number.isInteger(n)) return refuse('must be a whole number');
  if (n <= 0) return refuse('must be positive');
  if (n > MAX_ID) return refuse('is too large');
  return n;
});

/** The last page index a remote grid may ask for (spec 01 section 3: PageIndex from 0). */
/**
 * A create's idempotency key (optional on the creates that take one, `IdempotencyKey`): the page makes one per
 * submission of its form and sends it again unchanged when that submission is retried, so the record is added once.
 * The same rule as a payment's key.
 */
export const createKeySchema = z
  .string({ error: 'must be text: one key of your own per new record, sent again unchanged when the call is retried' })
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8 to 100 letters, digits or - _ . :');

/**
 * One record of a bulk change: its id (the spec's id lists), or its id with the Version the caller saw, which the
 * change then checks. `error` words a reference that is neither.
 */
export const versionedRefSchema = (error: string) => z.union([idSchema, z.object({ ID: idSchema, Version: idSchema })], { error });
export type VersionedRef = number | { ID: number; Version: number };
/** The id a reference names. */
export const refId = (ref: VersionedRef): number => (typeof ref === 'number' ? ref : ref.ID);

/**
 * What a bulk change's references say, by id (each id once, in the order first named): the Versions the caller saw of
 * it (none for an id sent alone). `staleIds` then names the records whose stored Version is not every one of them.
 */
export function versionsSeen(refs: readonly VersionedRef[]): Map<number, number[]> {
  const seen = new Map<number, number[]>();
  for (const ref of refs) {
    const versions = seen.get(refId(ref)) ?? [];
    if (typeof ref !== 'number') versions.push(ref.Version);
    seen.set(refId(ref), versions);
  }
  return seen;
}

/** The ids of `stored` (id and Version as stored now, read locked) that the caller saw at another Version. */
export const staleIds = (seen: ReadonlyMap<number, readonly number[]>, stored: readonly { id: number; version: number }[]): number[] =>
  stored.filter((r) => seen.get(r.id)?.some((v) => v !== r.version)).map((r) => r.id);

export const MAX_PAGE_INDEX = 10_000;

/** A remote grid's PageIndex from a query or a body: a whole number from 0 to MAX_PAGE_INDEX, 0 when absent. */
export const pageIndexSchema = z.coerce
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(MAX_PAGE_INDEX, schemaText('must be at most {{max}}', { max: MAX_PAGE_INDEX }))
  .default(0);

/**
 * 10-digit phone; output is digits only whatever punctuation came in. More digits are refused, never cut: '+1 (512)
 * 555-0101' cut to ten would be stored as another number (the field keeps ten as it is typed, spec 01 section 5).
 */
export const phoneSchema = z
  .string()
  .transform((v) => onlyDigits(v))
  .pipe(z.string().length(PHONE_DIGITS, m.phone));

/** Mobile: a phone that must not start with 0 (spec 01 section 5). */
export const mobilePhoneSchema = phoneSchema.refine((v) => !v.startsWith('0'), m.mobileStartsWithZero);

/** An SSN: its nine digits, whatever punctuation came in. More digits are refused, never cut (as phoneSchema). */
export const ssnSchema = z
  .string()
  .transform((v) => onlyDigits(v))
  .pipe(z.string().length(SSN_DIGITS, m.ssn));

export const emailSchema = z
  .string()
  .trim()
  .refine((v) => isEmail(v), m.email);

/** A US ZIP code: 5 digits, or ZIP+4 (12345-6789). */
export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;

/** ZIP or ZIP+4, trimmed; the message is the kit's validation.zip, which every form with a ZIP shares. */
export const zipSchema = z.string().trim().regex(ZIP_PATTERN, m.zip);

const dateErrorMessage: Record<MaskedDateError, string> = {
  incomplete: m.dateIncomplete,
  invalid: m.dateInvalid,
  tooEarly: m.dateTooEarly,
  tooLate: m.dateTooLate,
};

/** MM/DD/YYYY or MMDDYYYY with optional exclusive bounds; the value itself is kept as typed. */
export const maskedDateSchema = (bounds: DateBounds = {}) =>
  z.string().superRefine((value, ctx) => {
    const error = validateMaskedDate(value, bounds);
    if (error) ctx.addIssue({ code: 'custom', message: dateErrorMessage[error] });
  });

/** ISO day 'YYYY-MM-DD' as stored by the date picker. */
/** A day as 'YYYY-MM-DD' and nothing else (no time part), a real calendar day. */
export const isoDateSchema = z.string().refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && parseIsoDay(v) !== null, m.dateInvalid);

/** Date of birth in 'YYYY-MM-DD' or MM/DD/YYYY and nothing more: before now and after the year 1900 (isValidDob). */
export const dobSchema = z.string().refine((v) => {
  const masked = parseMaskedDate(v);
  const iso = masked ? `${masked.year}-${String(masked.month).padStart(2, '0')}-${String(masked.day).padStart(2, '0')}` : v;
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) && isValidDob(iso);
}, m.dob);

/** The largest amount moneySchema takes: $100,000,000.00 (as the ledger's amounts), well inside exact integer cents. */
export const MAX_MONEY = 100_000_000;

/** Money typed as text ('12,5', '$1,000.00') or a number, at most MAX_MONEY either way; output is a number rounded to cents. */
export const moneySchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const n = parseMoney(value);
  if (n === null || Math.abs(n) > MAX_MONEY) {
    ctx.addIssue({ code: 'custom', message: m.money });
    return z.NEVER;
  }
  return roundMoney(n);
});

/** A number capped at max: larger values reset to max rather than failing. */
export const cappedNumberSchema = (max: number, min?: number) =>
  z.coerce
    .number({ error: m.number })
    .refine((n) => Number.isFinite(n), m.number)
    .transform((n) => capNumber(n, max, min));

export const resetPasswordSchema = z.string().regex(RESET_PASSWORD_PATTERN, m.passwordReset);

/** The longest password any form takes (the account and token contracts' bound). */
export const MAX_PASSWORD_LENGTH = 1024;

/** Valid only when every server policy rule passes, and at most MAX_PASSWORD_LENGTH characters. */
export const passwordPolicySchema = (rules: readonly PasswordRule[]) =>
  z.string().refine((v) => v.length <= MAX_PASSWORD_LENGTH && evaluatePasswordPolicy(v, rules).valid, m.passwordPolicy);

/** Lets an optional text field be left empty while still validating anything typed. */
export const allowEmpty = <T extends z.ZodType>(schema: T) => z.union([z.literal(''), schema]);

/**
 * Compare rule on an object schema: `confirm` must equal `source`; empty counts as valid.
 * The error lands on `confirm`, the field the user fixes.
 */
export function withFieldsMatch<T extends z.ZodObject>(
  schema: T,
  source: keyof z.output<T> & string,
  confirm: keyof z.output<T> & string,
  message: string = m.mismatch,
): T {
  return schema.refine((value) => fieldsMatch((value as Record<string, unknown>)[source], (value as Record<string, unknown>)[confirm]), {
    message,
    path: [confirm],
  }) as T;
}
