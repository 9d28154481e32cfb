import { createKeySchema } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { newCreateKey, SubmissionKeys } from './submissionKeys';

const counter = () => {
  let n = 0;
  return () => `claim-key-${++n}`;
};
const bill = { MemberID: 4, PayeeID: 1, BillTypeID: 21, BilledAmount: '12.50', ServiceDateFrom: '2026-01-05' };

describe('the IdempotencyKey of a new record', () => {
  it('is the same when the same bill is saved again (a retry after a failure whose answer may have been lost)', () => {
    const keys = new SubmissionKeys(counter());
    const first = keys.keyFor(bill);
    expect(keys.keyFor({ ...bill })).toBe(first);
  });

  it('is new for a bill changed before it is saved again, and for the next bill once one was added', () => {
    const keys = new SubmissionKeys(counter());
    const first = keys.keyFor(bill);
    const changed = keys.keyFor({ ...bill, BilledAmount: '125.00' });
    expect(changed).not.toBe(first);
    keys.added();
    // The same values once more after the bill was added: the user adds a second bill on purpose.
    expect(keys.keyFor({ ...bill, BilledAmount: '125.00' })).not.toBe(changed);
  });

  it('is made in the format the server takes', () => {
    const a = newCreateKey('claim');
    expect(createKeySchema.safeParse(a).success, a).toBe(true);
    expect(newCreateKey('claim')).not.toBe(a);
    expect(createKeySchema.safeParse(new SubmissionKeys().keyFor(bill)).success).toBe(true);
  });
});
