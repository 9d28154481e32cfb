import type { LedgerTransaction } from '../../contract';
import { type LedgerMessage, LedgerMessages, TransactionType } from '../../rules';

/** A row's edit inputs, in the order they stand: the first takes focus when the edit opens. */
export const EDIT_FIELDS = ['DateCreated', 'Code', 'Company', 'Description', 'TransactionTypeID', 'Amount'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

/**
 * A save refused because of one input, and that input: the page's own rule check (`message`, the rule's refusal, which
 * the page words), or the server (`text`, its message as it came, already in the reader's language: a date after the
 * end of a terminated membership, see terminationRefusalOf).
 */
export type RowRefusal = { field: EditField; message: LedgerMessage; text?: undefined } | { field: EditField; text: string; message?: undefined };

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
  /**
   * An edited row's Version when its edit began: the save sends it, so a change someone else saved meanwhile is a 409,
   * however often the list reloads under the open edit (another row's save, an add, the report check or send).
   */
  Version?: number;
  /** The server's refusal of this edit's save (someone else changed or deleted the row): shown on the row until it is reloaded. */
  Conflict?: string;
  /** The page's rule check refused this row's save: its input is marked with the rule's text until that input changes. */
  Refused?: RowRefusal;
  /**
   * An edit that began as a new row: its create had been added before (the answer was lost) with the values first
   * sent, and the member had changed them since (keyReusedOf). The draft keeps the member's values as an edit of that
   * row, said on the row until it is saved or cancelled.
   */
  SavedBefore?: true;
  /** The member has typed in this row since it opened: leaving the page asks first (kit useUnsavedChanges). */
  Typed?: true;
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

/** An existing row as a draft, with the Version it has now: the edit's save sends that one. */
export const draftOf = (r: LedgerTransaction): Draft => ({
  DateCreated: r.DateCreated,
  Code: r.Code ?? '',
  Company: r.Company ?? '',
  Description: r.Description ?? '',
  TransactionTypeID: String(r.TransactionTypeID),
  Amount: r.Amount.toFixed(2),
  Version: r.Version,
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
 * picks the day; the draft's idempotency key (the create requires one) makes a repeated Save add the row once.
 */
export function createBody(d: Draft, today: string) {
  if (d.IdempotencyKey === undefined) throw new Error('A new row keeps the idempotency key of its draft (newDraft).');
  return {
    ...fields(d),
    DateCreated: d.DateCreated.trim() === '' ? today : d.DateCreated,
    IdempotencyKey: d.IdempotencyKey,
  };
}

/** The update call's fields: an empty date keeps the stored one (the server's rule for edits). */
export const editBody = (d: Draft) => fields(d);

/**
 * The update call's body: the typed fields with the Version the row had when its edit began (not the one the list
 * shows now, which a reload may have moved past someone else's change).
 */
export function updateBody(d: Draft, transactionId: number) {
  if (d.Version === undefined) throw new Error('An edit draft keeps the version of its row (draftOf).');
  return { ...editBody(d), TransactionID: transactionId, Version: d.Version };
}

/**
 * The row a new row's create had already added, when the create is refused because its key was sent before with other
 * values (409 with Data `KeyReused` and the row): the first Save's answer was lost and the member changed the row
 * since. null for anything else.
 */
export function keyReusedOf(error: unknown): LedgerTransaction | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, body } = error as { status?: unknown; body?: unknown };
  const data = typeof body === 'object' && body !== null ? (body as { Data?: unknown }).Data : null;
  if (status !== 409 || typeof data !== 'object' || data === null) return null;
  const { KeyReused, Transaction } = data as { KeyReused?: unknown; Transaction?: unknown };
  if (KeyReused !== true || typeof Transaction !== 'object' || Transaction === null) return null;
  return Transaction as LedgerTransaction;
}

/**
 * A new row's draft as an edit of the row its create had already added (keyReusedOf): the member's values, the row's
 * Version, and an empty date as the day the row was added with (the create sent the member's today for it).
 */
export const correctionOf = (d: Draft, row: LedgerTransaction): Draft => ({
  ...fields(d),
  DateCreated: d.DateCreated.trim() === '' ? row.DateCreated : d.DateCreated,
  Version: row.Version,
  SavedBefore: true,
});

/**
 * The message to show on the row when a save is refused because the row is no longer what the edit began from: 409
 * (someone else saved it, or it was reported or is being sent meanwhile) or 404 (deleted meanwhile). null for any
 * other failure (the client's toast says it), and for a date after the end of the membership (terminationRefusalOf).
 */
export function conflictOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || terminationRefusalOf(error) !== null) return null;
  const { status, message } = error as { status?: unknown; message?: unknown };
  if (status !== 409 && status !== 404) return null;
  return typeof message === 'string' ? message : '';
}

/**
 * The server's refusal of a save because the row's date is after the day the member's membership ended (409 with Data
 * `Terminated`): kept on the row as the date input's refusal, with the server's message, until the date changes. Not
 * a conflict: the row is as it was, and another date (on or before that day) may be saved. null for anything else.
 */
export function terminationRefusalOf(error: unknown): RowRefusal | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, message, body } = error as { status?: unknown; message?: unknown; body?: unknown };
  const data = typeof body === 'object' && body !== null ? (body as { Data?: unknown }).Data : null;
  if (status !== 409 || typeof data !== 'object' || data === null || (data as { Terminated?: unknown }).Terminated !== true) return null;
  return { field: 'DateCreated', text: typeof message === 'string' ? message : '' };
}

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

/** The input each refusal of a row's rule check (checkLedgerEntry, checkLedgerEdit) is about. */
const RULE_FIELDS: ReadonlyMap<LedgerMessage, EditField> = new Map<LedgerMessage, EditField>([
  [LedgerMessages.futureDate, 'DateCreated'],
  [LedgerMessages.invalidDate, 'DateCreated'],
  [LedgerMessages.type, 'TransactionTypeID'],
  [LedgerMessages.amount, 'Amount'],
  [LedgerMessages.amountNumber, 'Amount'],
  [LedgerMessages.amountCents, 'Amount'],
  [LedgerMessages.description, 'Description'],
]);

/** A refusal of a row's rule check as the row keeps it; null for a refusal that is about no row input (the balance's). */
export function refusalOf(message: LedgerMessage): RowRefusal | null {
  const field = RULE_FIELDS.get(message);
  return field === undefined ? null : { field, message };
}

/** The draft with typed values: a refusal stays marked until the input it is about changes. */
export function withTyped(d: Draft, patch: Partial<Pick<Draft, EditField>>): Draft {
  const next: Draft = { ...d, ...patch, Typed: true };
  if (d.Refused && d.Refused.field in patch && patch[d.Refused.field] !== d[d.Refused.field]) delete next.Refused;
  return next;
}

/**
 * The inputs a row's edit marks invalid: the one the rule check refused, and the report check's missing fields
 * (`missing`, report mode) that are still empty in the draft, in the order the inputs stand. A code is missing only on
 * an expense (the report needs none on a deposit or interest).
 */
export function invalidFields(d: Draft, missing: readonly string[]): { refused: EditField | null; missing: EditField[] } {
  const stillMissing = EDIT_FIELDS.filter(
    (f) => missing.includes(f) && d[f].trim() === '' && (f !== 'Code' || d.TransactionTypeID === String(TransactionType.Expense)),
  );
  return { refused: d.Refused?.field ?? null, missing: stillMissing };
}

/** Whether any open row holds what the member typed and has not saved (a row opened and left as it was does not). */
export const hasTypedDraft = (drafts: Readonly<Record<string, Draft>>): boolean => Object.values(drafts).some((d) => d.Typed === true);
