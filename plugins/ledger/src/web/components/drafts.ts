import type { LedgerTransaction } from '../../contract';
import { TransactionType } from '../../rules';

/** A row being edited: the typed values as text; cancel drops the draft, so the row shows what it had. */
export interface Draft {
  DateCreated: string;
  Code: string;
  Company: string;
  Description: string;
  TransactionTypeID: string;
  Amount: string;
  /** A new row's idempotency key, made with the draft: every Save of this row is the same create. */
  IdempotencyKey?: string;
}

const newKey = () => `ledger-${crypto.randomUUID()}`;

/** A new row (spec 02 section 9: date today, type Expense), with its own idempotency key. */
export const newDraft = (today: string): Draft => ({
  DateCreated: today,
  Code: '',
  Company: '',
  Description: '',
  TransactionTypeID: String(TransactionType.Expense),
  Amount: '',
  IdempotencyKey: newKey(),
});

/** An existing row as a draft. */
export const draftOf = (r: LedgerTransaction): Draft => ({
  DateCreated: r.DateCreated,
  Code: r.Code ?? '',
  Company: r.Company ?? '',
  Description: r.Description ?? '',
  TransactionTypeID: String(r.TransactionTypeID),
  Amount: r.Amount.toFixed(2),
});

const fields = (d: Draft) => ({
  DateCreated: d.DateCreated,
  Code: d.Code,
  Company: d.Company,
  Description: d.Description,
  TransactionTypeID: d.TransactionTypeID,
  Amount: d.Amount,
});

/**
 * The create call's body: an empty date is the member's own today (`today`, their local day), so the server never
 * picks the day; the draft's idempotency key makes a repeated Save add the row once.
 */
export const createBody = (d: Draft, today: string) => ({
  ...fields(d),
  DateCreated: d.DateCreated.trim() === '' ? today : d.DateCreated,
  IdempotencyKey: d.IdempotencyKey,
});

/** The update call's fields: an empty date keeps the stored one (the server's rule for edits). */
export const editBody = (d: Draft) => fields(d);

/**
 * One call at a time per key (a row's Save): a press while that row's call is pending starts nothing and answers
 * undefined. `onChange` gets the keys pending, for the buttons to show it (disabled).
 */
export function pendingGuard(onChange: (pending: ReadonlySet<string>) => void) {
  const pending = new Set<string>();
  return async function run<T>(key: string, call: () => Promise<T>): Promise<T | undefined> {
    if (pending.has(key)) return undefined;
    pending.add(key);
    onChange(new Set(pending));
    try {
      return await call();
    } finally {
      pending.delete(key);
      onChange(new Set(pending));
    }
  };
}
