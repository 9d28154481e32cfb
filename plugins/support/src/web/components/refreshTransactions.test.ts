import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshTransactions } from './refreshTransactions';

describe('refreshing after support acts on a transaction', () => {
  it("marks the transaction lists and the dashboard's work queue stale, and nothing else", async () => {
    const queryClient = new QueryClient();
    for (const key of [
      ['support', 'transactions', 'Declined'],
      ['support', 'queue'],
      ['support', 'members'],
    ])
      queryClient.setQueryData(key, {});
    await refreshTransactions(queryClient);
    const stale = (key: string[]) => queryClient.getQueryState(key)?.isInvalidated;
    expect(stale(['support', 'transactions', 'Declined'])).toBe(true);
    expect(stale(['support', 'queue'])).toBe(true);
    expect(stale(['support', 'members'])).toBe(false);
  });
});
