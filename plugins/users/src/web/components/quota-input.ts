import { MAX_CASES } from '../../rules';

/** A month of the quota form as typed. */
export interface DraftRow {
  MonthNumber: number;
  min: string;
  max: string;
}

/** One of a month's two inputs. */
export type QuotaField = 'min' | 'max';
const FIELDS: readonly QuotaField[] = ['min', 'max'];

const WHOLE = /^\d+$/;

/** A month's problem as an i18n key, or null: whole numbers from 0, both or neither, minimum at most maximum. */
export function quotaProblem(row: DraftRow): string | null {
  const min = row.min.trim();
  const max = row.max.trim();
  if (!min && !max) return null;
  if (!min || !max) return 'quotas.errors.both';
  if (!WHOLE.test(min) || !WHOLE.test(max)) return 'quotas.errors.whole';
  if (Number(min) > MAX_CASES || Number(max) > MAX_CASES) return 'quotas.errors.tooLarge';
  if (Number(min) > Number(max)) return 'quotas.errors.order';
  return null;
}

/**
 * The inputs of a month that its problem is in, which the form marks invalid (aria-invalid, described by the month's
 * error): the empty one of 'both', the one that is no whole number or too large, and both when the minimum is over the
 * maximum. None when the month is fine.
 */
export function invalidFields(row: DraftRow): QuotaField[] {
  const value = (field: QuotaField) => row[field].trim();
  switch (quotaProblem(row)) {
    case 'quotas.errors.both':
      return FIELDS.filter((f) => !value(f));
    case 'quotas.errors.whole':
      return FIELDS.filter((f) => !WHOLE.test(value(f)));
    case 'quotas.errors.tooLarge':
      return FIELDS.filter((f) => Number(value(f)) > MAX_CASES);
    case 'quotas.errors.order':
      return [...FIELDS];
    default:
      return [];
  }
}

/** The months that cannot be saved as typed. */
export const problemCount = (rows: readonly DraftRow[]): number => rows.filter((r) => quotaProblem(r) !== null).length;

/**
 * Where focus goes when Save is pressed with problems: the first invalid input in the table's order (month by month,
 * minimum before maximum), so a screen-reader user lands on it and hears its label, that it is invalid and the error.
 * Null when every month can be saved.
 */
export function firstInvalidField(rows: readonly DraftRow[]): { MonthNumber: number; field: QuotaField } | null {
  for (const row of rows) {
    const field = invalidFields(row)[0];
    if (field) return { MonthNumber: row.MonthNumber, field };
  }
  return null;
}

/** The id of a month's error text, which its invalid inputs name in aria-describedby. */
export const quotaErrorId = (month: number) => `quota-error-${month}`;
