import { describe, expect, it } from 'vitest';
import { ACTIVITY_SORT_COLUMNS, activitySchema, activitySearchSchema, ledgerCreateSchema, ledgerUpdateSchema, reportSendSchema } from './contract';

describe('activity transaction (spec 02 section 3: CreatedDate, type, text)', () => {
  it('answers type and text in lower case, as the spec writes them', () => {
    const row = { TransactionID: 1, CreatedDate: '2026-03-01T10:00:00Z', Amount: -12.5 };
    expect(activitySchema.safeParse({ ...row, type: 'Expense', text: 'Clinic - Visit' }).success).toBe(true);
    expect(activitySchema.safeParse({ ...row, Type: 'Expense', Text: 'Clinic - Visit' }).success).toBe(false);
  });
  it('sorts by the same names', () => {
    expect(ACTIVITY_SORT_COLUMNS).toEqual(['CreatedDate', 'type', 'text']);
    for (const SortColumn of ['CreatedDate', 'type', 'text']) expect(activitySearchSchema.safeParse({ SortColumn }).success, SortColumn).toBe(true);
    for (const SortColumn of ['Type', 'Text']) expect(activitySearchSchema.safeParse({ SortColumn }).success, SortColumn).toBe(false);
  });
});

describe('ledger update: the type is checked by the contract (an edit does not repeat the type rule)', () => {
  const base = { TransactionID: 1, Version: 1, Amount: 5 };
  it('leaves an empty type out (the stored type stays) and takes a known one as a number or text', () => {
    for (const TransactionTypeID of [undefined, null, '', ' ']) {
      const r = ledgerUpdateSchema.safeParse({ ...base, TransactionTypeID });
      expect(r.success && r.data.TransactionTypeID, String(TransactionTypeID)).toBeUndefined();
    }
    expect(ledgerUpdateSchema.parse({ ...base, TransactionTypeID: '3' }).TransactionTypeID).toBe(3);
    expect(ledgerUpdateSchema.parse({ ...base, TransactionTypeID: 1 }).TransactionTypeID).toBe(1);
  });
  it('refuses a type that is not 1, 2 or 3; create leaves that to its rules', () => {
    for (const TransactionTypeID of [0, 4, 1.5, 'abc', true]) expect(ledgerUpdateSchema.safeParse({ ...base, TransactionTypeID }).success).toBe(false);
    expect(ledgerCreateSchema.safeParse({ TransactionTypeID: 4, IdempotencyKey: 'ledger-0a1b2c3d' }).success).toBe(true);
  });
});

describe('ledger create: an IdempotencyKey makes a repeated create add its row once', () => {
  it('takes 8 to 100 letters, digits or - _ . : and refuses anything else', () => {
    expect(ledgerCreateSchema.parse({ IdempotencyKey: ' ledger-0a1b2c3d ' }).IdempotencyKey).toBe('ledger-0a1b2c3d');
    for (const IdempotencyKey of ['short', 'has spaces in it', 'x'.repeat(101), 'ledger/0a1b2c3d', 12345678])
      expect(ledgerCreateSchema.safeParse({ IdempotencyKey }).success, String(IdempotencyKey)).toBe(false);
  });
  it('requires the key: a create without one is refused, its message naming what is missing', () => {
    const r = ledgerCreateSchema.safeParse({ TransactionTypeID: 1, Amount: 5, Description: 'Visit' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['IdempotencyKey', 'is required: one key of your own per new transaction, sent again unchanged when the call is retried'],
    ]);
  });
  it('an update takes none: its Version refuses a repeat', () => {
    expect(ledgerUpdateSchema.parse({ TransactionID: 1, Version: 1, Amount: 5, IdempotencyKey: 'ledger-0a1b2c3d' })).not.toHaveProperty('IdempotencyKey');
  });
});

describe('report/send: the search object, with an optional HeaderVersion of ours', () => {
  const Query = { From: '2026-01-01', To: '2026-01-31', HICN: '123456789A' };
  it('takes the search object as the spec has it, without a HeaderVersion', () => {
    const r = reportSendSchema.parse({ Query });
    expect(r.HeaderVersion).toBeUndefined();
    expect(r.Query.HICN).toBe('123456789A');
  });
  it('takes the HeaderVersion the header was loaded at, as a number or decimal text', () => {
    expect(reportSendSchema.parse({ Query, HeaderVersion: 3 }).HeaderVersion).toBe(3);
    expect(reportSendSchema.parse({ Query, HeaderVersion: '3' }).HeaderVersion).toBe(3);
  });
  it('refuses a HeaderVersion that is not a positive whole number', () => {
    for (const HeaderVersion of [0, -1, 1.5, 'abc', true, null])
      expect(reportSendSchema.safeParse({ Query, HeaderVersion }).success, String(HeaderVersion)).toBe(false);
  });
});
