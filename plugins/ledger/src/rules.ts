/**
 * The ledger's rules, shared by the server (which enforces them) and the web (which checks before sending).
 * Zod-free: the dashboard widgets and the page import these without the schemas.
 */
import { parseMoney } from '@portal/core';

/** TransactionTypeID: 1 Expense (-), 2 Deposit (+), 3 Interest (+). */
export const TransactionType = { Expense: 1, Deposit: 2, Interest: 3 } as const;
export const TRANSACTION_TYPE_IDS: readonly number[] = Object.values(TransactionType);
/** +1 for money in, -1 for money out. */
export const signOf = (typeId: number): 1 | -1 => (typeId === TransactionType.Expense ? -1 : 1);

/** The refusals of a ledger entry, checked in this order (spec 02 section 5); the texts are the spec's, word for word. */
export const LedgerMessages = {
  futureDate: 'Future data transaction entry is not allowed. Please enter a valid date.',
  type: 'Please select transaction type',
  amount: 'Please enter amount',
  description: 'Please enter description of service',
  amountNumber: 'Amount has to be number',
  balanceNumber: 'Balance has to be number',
  /** Not in the spec: a date that is not a calendar day. */
  invalidDate: 'Please enter a valid date.',
  /** Not in the spec: more than 2 decimals or out of range. */
  amountCents: 'Amount must be a whole number of cents up to $100,000,000.',
  balanceCents: 'Balance must be a whole number of cents up to $100,000,000.',
  balanceSet: 'The initial balance has already been set.',
} as const;
/** The refusal of a rule: the server sends it (in the user's language), the web names its text by the rule (ruleKey). */
export type LedgerMessage = (typeof LedgerMessages)[keyof typeof LedgerMessages];

/** Federal-payer messages (spec 02 section 8). */
export const PayerMessages = {
  sent: 'Successfully sent. Thank you.',
  error: 'Error sending. Please contact support.',
  checked: 'All records checked.',
  /** Not in the spec: the period was sent before; nothing is sent again. */
  alreadySent: 'This period was already sent to the federal payer.',
  /** Not in the spec: report/send refused while records are incomplete. */
  incomplete: 'Some records are incomplete. Check all records before sending.',
  /** Not in the spec: report/send refused while another send of these records waits for the payer's answer. */
  sending: 'Records of this period are being sent to the federal payer. Try again in a few minutes.',
  /**
   * Not in the spec: report/send refused because the report header (HICN, dates) changed since the caller loaded it
   * (its HeaderVersion is not the stored one); nothing was sent or saved.
   */
  headerChanged: 'Someone else changed the HICN or the dates of this report meanwhile, so it was not sent. Check the ones stored now and send again.',
  /**
   * Not in the spec: the payer refused the send (409) because it already holds a different report under this period's
   * key; nothing was recorded, and support has to settle it with the payer.
   */
  otherReport: 'The federal payer already holds a different report for this period, so it was not sent again. Please contact support.',
  reportGenerated: 'Report generated',
} as const;

/** Card statuses the ledger leaves out: not (or no longer) money moved (spec 02 section 9). */
export const EXCLUDED_STATUSES: readonly string[] = ['Authorized', 'Captured', 'Voided'];
export const CARD_STATUSES = ['Authorized', 'Captured', 'Settled', 'Voided', 'Declined'] as const;

export const PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const RECENT_TRANSACTIONS = 6;
/** Largest amount or balance: $100 million, in cents. */
export const MAX_CENTS = 10_000_000_000;
/** Dialog timings (spec 02 section 9). */
export const CONFIRM_DIALOG_DELAY_MS = 700;
export const SENT_INLINE_MS = 4000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Whether text is a real calendar day 'YYYY-MM-DD' between 1900 and 2999. */
export function isDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2999;
}
/** Today as 'YYYY-MM-DD' in UTC. */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);
/** The hours the earliest time zone (UTC+14, Kiritimati) is ahead of UTC. */
const EARLIEST_ZONE_HOURS = 14;
/**
 * The latest calendar day anywhere on earth, 'YYYY-MM-DD' (the day in UTC+14). The server does not know the member's
 * time zone: a date is in the future only once it is after today everywhere, so a member east of UTC (UTC+10) may
 * enter their own today and a member west of it is never refused theirs.
 */
export const latestToday = (now: Date = new Date()): string => todayUtc(new Date(now.getTime() + EARLIEST_ZONE_HOURS * 3_600_000));
/** The day `days` before (negative: after) a day. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
export function addMonths(day: string, months: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  const target = d.getUTCMonth() + months;
  d.setUTCDate(1);
  d.setUTCMonth(target);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(Number(day.slice(8, 10)), last));
  return d.toISOString().slice(0, 10);
}
/** Default ranges (spec 02 section 9): ledger and transactions one year back to today, activity 90 days, financials 1 month. */
export const DefaultRange = {
  ledger: (today: string) => ({ From: addMonths(today, -12), To: today }),
  activity: (today: string) => ({ From: addDays(today, -90), To: today }),
  financials: (today: string) => ({ From: addMonths(today, -1), To: today }),
};

/**
 * Amount text or number as the member typed it: '$1,234.50', '-$12', '12', 12.5. NaN when it is not a number. A sign
 * and a '$' may lead; the digits are read as the platform's parseMoney reads them: a lone comma followed by one or two
 * digits is a decimal comma ('12,50' is 12.5, spec 02 section 5), commas in groups of three are thousands separators
 * ('1,000.50'), and with both marks the last is the decimal one ('1.500,00' is 1500); badly grouped digits are NaN.
 */
export function parseAmount(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return Number.NaN;
  const m = /^([-+]?)\$?([\d.,]+)$/.exec(v.trim());
  if (!m) return Number.NaN;
  const n = parseMoney(`${m[1] === '-' ? '-' : ''}${m[2]}`);
  return n === null ? Number.NaN : n;
}
const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
/** Dollars to integer cents, or null when not a whole number of cents. */
export function centsOf(dollars: number): number | null {
  const cents = Math.round(dollars * 100);
  return Math.abs(cents - dollars * 100) < 1e-6 ? cents : null;
}

export interface LedgerEntryInput {
  DateCreated?: unknown;
  TransactionTypeID?: unknown;
  Amount?: unknown;
  Description?: unknown;
}
export interface CheckedEntry {
  DateCreated: string;
  TransactionTypeID: number;
  /** Absolute value, integer cents. */
  AmountCents: number;
}

type Refusal = { ok: false; message: LedgerMessage };

/** The future-date check: a calendar day not after today; an empty date passes as null (the caller decides). */
function checkDate(v: unknown, today: string): { ok: true; date: string | null } | Refusal {
  if (isEmpty(v)) return { ok: true, date: null };
  const date = String(v).trim().slice(0, 10);
  if (isDay(date) && date > today) return { ok: false, message: LedgerMessages.futureDate };
  if (!isDay(date)) return { ok: false, message: LedgerMessages.invalidDate };
  return { ok: true, date };
}
/** The amount's number checks (after 'Please enter amount'): a number, whole cents, within the limit, not 0. */
function checkAmountNumber(v: unknown): { ok: true; cents: number } | Refusal {
  const amount = parseAmount(v);
  if (!Number.isFinite(amount)) return { ok: false, message: LedgerMessages.amountNumber };
  const cents = centsOf(Math.abs(amount));
  if (cents === null || cents > MAX_CENTS) return { ok: false, message: LedgerMessages.amountCents };
  if (cents === 0) return { ok: false, message: LedgerMessages.amount };
  return { ok: true, cents };
}

/**
 * The rules of spec 02 section 5 in their order: future date, type, amount present, description, amount a number.
 * `today` is the last day that is not in the future; an empty date means `emptyDate` (by default `today`: the page
 * passes its own day for both; the server bounds dates by latestToday and never gets an empty date from the page).
 * The amount is kept as its absolute value.
 */
export function checkLedgerEntry(input: LedgerEntryInput, today: string, emptyDate: string = today): { ok: true; entry: CheckedEntry } | Refusal {
  const date = checkDate(input.DateCreated, today);
  if (!date.ok) return date;
  const type = typeof input.TransactionTypeID === 'string' && /^\d+$/.test(input.TransactionTypeID) ? Number(input.TransactionTypeID) : input.TransactionTypeID;
  if (typeof type !== 'number' || !TRANSACTION_TYPE_IDS.includes(type)) return { ok: false, message: LedgerMessages.type };
  if (isEmpty(input.Amount)) return { ok: false, message: LedgerMessages.amount };
  if (isEmpty(input.Description)) return { ok: false, message: LedgerMessages.description };
  const amount = checkAmountNumber(input.Amount);
  if (!amount.ok) return amount;
  return { ok: true, entry: { DateCreated: date.date ?? emptyDate, TransactionTypeID: type, AmountCents: amount.cents } };
}

export interface CheckedEdit {
  /** The new day, or null to keep the stored one (an empty date: the column needs a value). */
  DateCreated: string | null;
  /** Absolute value, integer cents. */
  AmountCents: number;
}
/**
 * An edit repeats only the amount and future-date checks (spec 02 section 5), in the create order: future date,
 * amount present, amount a number. No type or description is asked for: an edit may clear the description (the
 * report check then lists the row). An empty date keeps the stored date; the type is the contract's to check.
 */
export function checkLedgerEdit(input: LedgerEntryInput, today: string): { ok: true; entry: CheckedEdit } | Refusal {
  const date = checkDate(input.DateCreated, today);
  if (!date.ok) return date;
  if (isEmpty(input.Amount)) return { ok: false, message: LedgerMessages.amount };
  const amount = checkAmountNumber(input.Amount);
  if (!amount.ok) return amount;
  return { ok: true, entry: { DateCreated: date.date, AmountCents: amount.cents } };
}

/** The initial balance: a number ('Balance has to be number'), whole cents, not above the limit. May be 0 or negative. */
export function checkBalance(v: unknown): { ok: true; cents: number } | Refusal {
  const amount = parseAmount(v);
  if (isEmpty(v) || !Number.isFinite(amount)) return { ok: false, message: LedgerMessages.balanceNumber };
  const cents = centsOf(amount);
  if (cents === null || Math.abs(cents) > MAX_CENTS) return { ok: false, message: LedgerMessages.balanceCents };
  return { ok: true, cents };
}

/** What a report needs of each record and of the member (the federal payer's required fields). */
export const REPORT_HEADER_FIELDS = ['HICN', 'DateOfInjury', 'DateOfSettlement'] as const;
export const REPORT_RECORD_FIELDS = ['Code', 'Company', 'Description'] as const;
