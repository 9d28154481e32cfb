import { describe, expect, it } from 'vitest';
import type { StatusHistoryEntry } from '../../contract';
import { latestStatusReason } from './statusReason';

const entry = (from: number | null, to: number, reason: string | null): StatusHistoryEntry => ({
  FromStatusID: from,
  ToStatusID: to,
  ChangedBy: 'support',
  ChangedAt: '2026-11-30T10:00:00Z',
  Reason: reason,
});

describe('latestStatusReason', () => {
  it("shows the reason of the bill's latest status change", () => {
    expect(latestStatusReason([entry(2, 3, 'Send the itemized bill.'), entry(1, 2, 'Looks complete'), entry(null, 1, 'Created')])).toBe(
      'Send the itemized bill.',
    );
  });
  it('shows none when the latest change had no reason, never an older change’s', () => {
    expect(latestStatusReason([entry(3, 2, null), entry(2, 3, 'Send the itemized bill.'), entry(null, 1, 'Created')])).toBeNull();
    expect(latestStatusReason([entry(3, 2, '  '), entry(null, 1, 'Created')])).toBeNull();
  });
  it("never takes the creation note ('Created', 'Reimbursement request') for a reason", () => {
    expect(latestStatusReason([entry(null, 1, 'Reimbursement request')])).toBeNull();
    expect(latestStatusReason([])).toBeNull();
  });
});
