import { formatIsoDay, formatMaskedDate, parseIsoDay, parseMaskedDate } from '@portal/core';
import type { UrlFilterValues } from '@portal/web/kit';
import { z } from 'zod';
import type { ClaimSearchInput } from '../../contract';
import { monthsAgo } from './format';

// Masked text dates (MM/DD/YYYY): lighter than the calendar picker on the members' landing page.
const maskedDate = z.string().refine((v) => v.trim() === '' || parseMaskedDate(v) !== null, 'validation.dateInvalid');
export const billFilterSchema = z.object({
  ReceivedDateFrom: maskedDate,
  ReceivedDateTo: maskedDate,
  ClaimStatusID: z.number().nullable(),
  BillTypeID: z.number().nullable(),
  ClaimNumber: z.string(),
  Payment: z.enum(['any', 'paid', 'unpaid']),
});
/** The bills list's filter form. */
export type BillFilterValues = z.infer<typeof billFilterSchema>;

/**
 * The filter form in the address (/claims?number=CL265&status=8): the dates as YYYY-MM-DD, the lookups by id. A
 * parameter that is absent means its default; `from=` is a From date cleared on purpose.
 */
export type BillFilterParams = UrlFilterValues<'from' | 'to' | 'status' | 'type' | 'number' | 'payment'>;

const PAYMENTS = ['any', 'paid', 'unpaid'] as const;

/** Defaults of spec 02 section 9: bills received in the last 6 months (as of `now`), anything else. */
export const billFilterDefaults = (now = new Date()): BillFilterParams => ({
  from: monthsAgo(6, now),
  to: '',
  status: '',
  type: '',
  number: '',
  payment: 'any',
});

const isoToMasked = (iso: string): string | null => {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? parseIsoDay(iso) : null;
  return day ? formatMaskedDate(day) : null;
};
const maskedToIso = (masked: string): string | null => {
  const day = parseMaskedDate(masked);
  return day ? formatIsoDay(day) : null;
};
const lookupId = (text: string): number | null => (/^[1-9]\d{0,8}$/.test(text) ? Number(text) : null);

/** The form's values from the address; a value that cannot be one (a mistyped date, id or choice) is its default. */
export function billFiltersFromParams(params: BillFilterParams, defaults: BillFilterParams): BillFilterValues {
  const date = (value: string, fallback: string) => (value === '' ? '' : (isoToMasked(value) ?? isoToMasked(fallback) ?? ''));
  return {
    ReceivedDateFrom: date(params.from, defaults.from),
    ReceivedDateTo: date(params.to, defaults.to),
    ClaimStatusID: lookupId(params.status),
    BillTypeID: lookupId(params.type),
    ClaimNumber: params.number,
    Payment: (PAYMENTS as readonly string[]).includes(params.payment) ? (params.payment as BillFilterValues['Payment']) : 'any',
  };
}

/** The address's parameters for the form's (valid) values. */
export function billFilterParams(values: BillFilterValues): BillFilterParams {
  return {
    from: maskedToIso(values.ReceivedDateFrom) ?? '',
    to: maskedToIso(values.ReceivedDateTo) ?? '',
    status: values.ClaimStatusID === null ? '' : String(values.ClaimStatusID),
    type: values.BillTypeID === null ? '' : String(values.BillTypeID),
    number: values.ClaimNumber,
    payment: values.Payment,
  };
}

/** The search the form's values ask for. */
export function billSearch(v: BillFilterValues): ClaimSearchInput {
  return {
    ReceivedDateFrom: maskedToIso(v.ReceivedDateFrom),
    ReceivedDateTo: maskedToIso(v.ReceivedDateTo),
    ClaimStatusID: v.ClaimStatusID,
    BillTypeID: v.BillTypeID,
    ClaimNumber: v.ClaimNumber || null,
    IsPaid: v.Payment === 'any' ? null : v.Payment === 'paid',
  };
}
