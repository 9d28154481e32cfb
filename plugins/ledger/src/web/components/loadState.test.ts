import { describe, expect, it } from 'vitest';
import { balanceLine, balanceOpen, listCount, listStatusRow } from './loadState';

const pending = { data: undefined, isPending: true, isError: false };
const failed = { data: undefined, isPending: false, isError: true };

describe('the ledger page shows a failed load as a failure, not as "no data"', () => {
  it('the balance line: "No initial balance yet" only when the server said so; loading while it waits; failed (Retry) when it failed', () => {
    expect(balanceLine(failed)).toEqual({ kind: 'failed' });
    expect(balanceLine(pending)).toEqual({ kind: 'loading' });
    expect(balanceLine({ data: { Amount: null, CurrentBalance: null }, isPending: false, isError: false })).toEqual({ kind: 'none' });
    expect(balanceLine({ data: { Amount: 100, CurrentBalance: 80.5 }, isPending: false, isError: false })).toEqual({ kind: 'amount', amount: 80.5 });
  });
  it('the initial-balance input opens only once the server said none is set', () => {
    expect(balanceOpen(failed)).toBe(false);
    expect(balanceOpen(pending)).toBe(false);
    expect(balanceOpen({ data: { Amount: null }, isPending: false, isError: false })).toBe(true);
    expect(balanceOpen({ data: { Amount: 0 }, isPending: false, isError: false })).toBe(false);
  });
  it('a failed list shows no "No transactions in this period." row and no count of 0', () => {
    expect(listStatusRow(failed, 0, false)).toBe('failed');
    expect(listCount(failed)).toBeNull();
    expect(listStatusRow(pending, 0, false)).toBe('loading');
    expect(listStatusRow({ data: { ItemCount: 0 }, isPending: false, isError: false }, 0, false)).toBe('empty');
    expect(listCount({ data: { ItemCount: 0 }, isPending: false, isError: false })).toBe(0);
    // A reload that fails after an answer: the rows it had stay, the error shows, no "no transactions" row.
    expect(listStatusRow({ data: { ItemCount: 0 }, isPending: false, isError: true }, 0, false)).toBe('failed');
    expect(listStatusRow({ data: { ItemCount: 3 }, isPending: false, isError: true }, 3, false)).toBeNull();
    expect(listStatusRow(failed, 0, true)).toBeNull();
  });
});
