import { describe, expect, it, vi } from 'vitest';
import { type LedgerTransaction, ledgerCreateSchema, ledgerUpdateSchema } from '../../contract';
import { checkLedgerEntry, LedgerMessages } from '../../rules';
import {
  conflictOf,
  correctionOf,
  createBody,
  type Draft,
  draftOf,
  editBody,
  hasTypedDraft,
  invalidFields,
  keyReusedOf,
  newDraft,
  pendingGuard,
  type RowRefusal,
  refusalOf,
  terminationRefusalOf,
  updateBody,
  withTyped,
} from './drafts';

const today = '2026-03-31';

describe('a new row is one create however often its Save is pressed', () => {
  it('each new row gets its own idempotency key, which the contract takes, and keeps it through its edits', () => {
    const a = newDraft(today);
    const b = newDraft(today);
    expect(a.IdempotencyKey).toMatch(/^ledger-/);
    expect(a.IdempotencyKey).not.toBe(b.IdempotencyKey);
    const typed = { ...a, Amount: '12,50', Description: 'Visit' };
    expect(createBody(typed, today).IdempotencyKey).toBe(a.IdempotencyKey);
    expect(createBody(typed, today)).toEqual(createBody(typed, today));
    expect(ledgerCreateSchema.parse(createBody(typed, today)).IdempotencyKey).toBe(a.IdempotencyKey);
  });
  it('a draft without a key (an existing row) cannot be sent as a create, which requires one', () => {
    const row = { TransactionID: 1, DateCreated: '2026-03-01', Code: null, Company: 'C', Description: 'D', TransactionTypeID: 2, Amount: 5, Balance: null };
    const draft = draftOf({ ...row, Status: 'Posted', Source: 'ledger', ReportedDate: null, Version: 1 });
    expect(() => createBody(draft, today)).toThrow();
    expect(ledgerCreateSchema.safeParse({ ...editBody(draft), DateCreated: today }).success).toBe(false);
  });
  it('an edit sends no key (its Version makes a repeat a 409) and keeps an empty date empty (the stored one stays)', () => {
    const row = { TransactionID: 1, DateCreated: '2026-03-01', Code: null, Company: 'C', Description: 'D', TransactionTypeID: 2, Amount: 5, Balance: null };
    const draft = { ...draftOf({ ...row, Status: 'Posted', Source: 'ledger', ReportedDate: null, Version: 1 }), DateCreated: '' };
    expect(editBody(draft)).not.toHaveProperty('IdempotencyKey');
    expect(editBody(draft).DateCreated).toBe('');
  });
});

describe('a new row with no date is sent as the member’s own today, so the server never picks the day', () => {
  it('an empty or blank date becomes the given local day; a date typed stays', () => {
    expect(createBody({ ...newDraft(today), DateCreated: '' }, today).DateCreated).toBe(today);
    expect(createBody({ ...newDraft(today), DateCreated: '  ' }, '2026-04-01').DateCreated).toBe('2026-04-01');
    expect(createBody({ ...newDraft(today), DateCreated: '2026-02-01' }, today).DateCreated).toBe('2026-02-01');
  });
});

describe('pendingGuard: one Save per row at a time', () => {
  it('a second press while the first call is pending starts nothing; another row saves at once; once settled it may run again', async () => {
    const seen: string[][] = [];
    const run = pendingGuard((keys) => seen.push([...keys]));
    let finish = () => {};
    const call = vi.fn(
      () =>
        new Promise<string>((resolve) => {
          finish = () => resolve('saved');
        }),
    );
    const first = run('new', call);
    const second = run('new', call);
    expect(await second).toBeUndefined();
    expect(call).toHaveBeenCalledTimes(1);
    expect(await run('7', async () => 'other row')).toBe('other row');
    finish();
    expect(await first).toBe('saved');
    expect(seen.at(-1)).toEqual([]);
    expect(seen).toContainEqual(['new']);
    expect(await run('new', async () => 'again')).toBe('again');
  });
  it('a call that fails frees its row', async () => {
    const run = pendingGuard(() => {});
    await expect(run('new', async () => Promise.reject(new Error('409')))).rejects.toThrow('409');
    expect(await run('new', async () => 'retried')).toBe('retried');
  });
});

describe('an edit saves with the Version its row had when the edit began, so nobody else’s change is overwritten', () => {
  const row = (over: Partial<LedgerTransaction> = {}): LedgerTransaction => ({
    TransactionID: 7,
    DateCreated: '2026-03-01',
    Code: '99213',
    Company: 'Clinic',
    Description: 'Visit',
    TransactionTypeID: 1,
    Amount: 12.5,
    Balance: 100,
    Status: 'Posted',
    Source: 'ledger',
    ReportedDate: null,
    Version: 3,
    ...over,
  });
  it('the draft keeps the Version of the row it began from; the update body sends that one, whatever the list shows now', () => {
    const draft = { ...draftOf(row()), Amount: '20.00' };
    expect(draft.Version).toBe(3);
    // Another row's save reloads the list: someone else's edit made this row Version 4 meanwhile.
    const reloaded = row({ Version: 4, Amount: 99 });
    const body = updateBody(draft, reloaded.TransactionID);
    expect(body).toMatchObject({ TransactionID: 7, Version: 3, Amount: '20.00' });
    expect(ledgerUpdateSchema.parse(body).Version).toBe(3);
  });
  it('a draft without a row version (a new row) cannot be sent as an update', () => {
    expect(() => updateBody(newDraft(today), 7)).toThrow();
  });
  it('a 409 or 404 refusal is the row’s conflict, with the server’s message; other failures are not', () => {
    const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });
    expect(conflictOf(refusal(409, 'Someone else changed this transaction; reload to see their change.'))).toBe(
      'Someone else changed this transaction; reload to see their change.',
    );
    expect(conflictOf(refusal(404, 'The transaction was not found.'))).toBe('The transaction was not found.');
    expect(conflictOf(refusal(400, 'Please enter amount'))).toBeNull();
    expect(conflictOf(refusal(502, 'down'))).toBeNull();
    expect(conflictOf(new Error('network'))).toBeNull();
    expect(conflictOf(null)).toBeNull();
  });
});

describe('a refused save marks the input its rule is about, until that input changes', () => {
  it('each refusal of the row checks names its input; the balance’s refusals name none', () => {
    expect(refusalOf(LedgerMessages.futureDate)).toEqual({ field: 'DateCreated', message: LedgerMessages.futureDate });
    expect(refusalOf(LedgerMessages.invalidDate)?.field).toBe('DateCreated');
    expect(refusalOf(LedgerMessages.type)?.field).toBe('TransactionTypeID');
    expect(refusalOf(LedgerMessages.amount)?.field).toBe('Amount');
    expect(refusalOf(LedgerMessages.amountNumber)?.field).toBe('Amount');
    expect(refusalOf(LedgerMessages.amountCents)?.field).toBe('Amount');
    expect(refusalOf(LedgerMessages.description)?.field).toBe('Description');
    expect(refusalOf(LedgerMessages.balanceNumber)).toBeNull();
    expect(refusalOf(LedgerMessages.balanceSet)).toBeNull();
  });
  it('the page’s own check of a new row refuses with a message whose input is then marked', () => {
    const draft = { ...newDraft(today), Amount: '10' };
    const checked = checkLedgerEntry(draft, today);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const refused = refusalOf(checked.message);
    expect(refused?.field).toBe('Description');
    expect(invalidFields({ ...draft, Refused: refused as RowRefusal }, []).refused).toBe('Description');
  });
  it('typing in the refused input drops the mark; typing elsewhere, or the same value, keeps it', () => {
    const refused: Draft = { ...newDraft(today), Refused: { field: 'Amount', message: LedgerMessages.amount } };
    expect(withTyped(refused, { Company: 'Clinic' }).Refused).toEqual(refused.Refused);
    expect(withTyped(refused, { Amount: '' }).Refused).toEqual(refused.Refused);
    const typed = withTyped(refused, { Amount: '1' });
    expect(typed.Refused).toBeUndefined();
    expect(typed.Amount).toBe('1');
    expect(invalidFields(typed, []).refused).toBeNull();
  });
});

describe('a date after the end of a terminated membership is the date input’s refusal, with the server’s message', () => {
  const ended = 'The membership ended on Feb 3, 2026: a transaction dated after that day cannot be added or saved.';
  const refusal = (status: number, message: string, Data: unknown) => Object.assign(new Error(message), { status, body: { MsgText: message, Data } });
  it('a 409 with Data Terminated marks the date with the server’s text, and is no conflict of the row (no Reload)', () => {
    const e = refusal(409, ended, { Terminated: true });
    expect(terminationRefusalOf(e)).toEqual({ field: 'DateCreated', text: ended });
    expect(conflictOf(e)).toBeNull();
    const draft: Draft = { ...newDraft(today), Refused: terminationRefusalOf(e) as RowRefusal };
    expect(invalidFields(draft, []).refused).toBe('DateCreated');
    // Another date typed drops the mark; typing elsewhere keeps it.
    expect(withTyped(draft, { Amount: '5' }).Refused).toEqual(draft.Refused);
    expect(withTyped(draft, { DateCreated: '2026-02-03' }).Refused).toBeUndefined();
  });
  it('other refusals are not: a stale row’s 409, a 409 with other data, a 400, a network failure', () => {
    expect(terminationRefusalOf(refusal(409, 'Someone else changed this transaction; reload to see their change.', null))).toBeNull();
    expect(terminationRefusalOf(refusal(409, 'Records of this period are being sent to the federal payer.', { Sending: true }))).toBeNull();
    expect(terminationRefusalOf(refusal(400, 'Please enter amount', { Terminated: true }))).toBeNull();
    expect(terminationRefusalOf(new Error('network'))).toBeNull();
    expect(terminationRefusalOf(null)).toBeNull();
    expect(conflictOf(refusal(409, 'Someone else changed this transaction; reload to see their change.', null))).toBe(
      'Someone else changed this transaction; reload to see their change.',
    );
  });
});

describe('in report mode a row’s edit marks the fields the report still misses', () => {
  const row: LedgerTransaction = {
    TransactionID: 9,
    DateCreated: '2026-03-01',
    Code: null,
    Company: null,
    Description: 'Visit',
    TransactionTypeID: 1,
    Amount: 12.5,
    Balance: 100,
    Status: 'Posted',
    Source: 'ledger',
    ReportedDate: null,
    Version: 1,
  };
  it('the report check’s fields that are still empty, in the order the inputs stand; none outside report mode', () => {
    const draft = draftOf(row);
    expect(invalidFields(draft, ['Company', 'Code'])).toEqual({ refused: null, missing: ['Code', 'Company'] });
    expect(invalidFields(draft, [])).toEqual({ refused: null, missing: [] });
  });
  it('a field typed in is no longer marked; a code is not missing once the row is no expense', () => {
    const draft = withTyped(draftOf(row), { Company: 'Harbor Clinic' });
    expect(invalidFields(draft, ['Code', 'Company']).missing).toEqual(['Code']);
    expect(invalidFields({ ...draft, Code: '  ' }, ['Code']).missing).toEqual(['Code']);
    expect(invalidFields(withTyped(draft, { TransactionTypeID: '2' }), ['Code', 'Company']).missing).toEqual([]);
  });
  it('a refused input that the report also misses is both', () => {
    const draft: Draft = { ...draftOf(row), Description: '', Refused: { field: 'Description', message: LedgerMessages.description } };
    expect(invalidFields(draft, ['Description'])).toEqual({ refused: 'Description', missing: ['Description'] });
  });
});

describe('a new row whose create had been added before with the values first sent (its answer lost), then changed', () => {
  const made = { TransactionID: 41, Version: 3, DateCreated: '2026-03-30', Amount: 12.34 } as LedgerTransaction;
  const refusal = (data: unknown, status = 409) => ({ status, message: 'This transaction was already added', body: { Data: data, HasError: true } });

  it('reads the row the create made from the refusal, and nothing from other refusals', () => {
    expect(keyReusedOf(refusal({ KeyReused: true, Transaction: made }))).toEqual(made);
    expect(keyReusedOf(refusal({ KeyReused: true, Transaction: made }, 400))).toBeNull();
    expect(keyReusedOf(refusal({ Terminated: true }))).toBeNull();
    expect(keyReusedOf(refusal(null))).toBeNull();
    expect(keyReusedOf(new Error('network'))).toBeNull();
  });

  it("keeps the member's values as an edit of that row, with its Version, and says so until saved", () => {
    const typed: Draft = { ...newDraft(today), Company: 'ReviewCo', Description: 'Lost answer', Amount: '12.43' };
    const edit = correctionOf(typed, made);
    expect(edit).toMatchObject({ Company: 'ReviewCo', Description: 'Lost answer', Amount: '12.43', Version: 3, SavedBefore: true, DateCreated: today });
    expect(edit.IdempotencyKey).toBeUndefined();
    // The save is the row's update: its id and Version, the corrected amount.
    expect(updateBody(edit, made.TransactionID)).toMatchObject({ TransactionID: 41, Version: 3, Amount: '12.43' });
    // An empty date had been sent as the member's today: the row's own day stands for it.
    expect(correctionOf({ ...typed, DateCreated: ' ' }, made).DateCreated).toBe('2026-03-30');
  });
});

describe('an open row the member typed in keeps the page from being left unasked', () => {
  it('a row opened (new or edit) and left as it was holds nothing to lose; one typed in does, until it is dropped', () => {
    const row = { ...newDraft(today), IdempotencyKey: 'k' };
    expect(hasTypedDraft({})).toBe(false);
    expect(hasTypedDraft({ new: row })).toBe(false);
    const typed = withTyped(row, { Amount: '12.43' });
    expect(typed.Typed).toBe(true);
    expect(hasTypedDraft({ new: row, 7: typed })).toBe(true);
    expect(hasTypedDraft({ new: row })).toBe(false);
  });
});
