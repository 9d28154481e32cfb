import type { QueryClient } from '@tanstack/react-query';

/**
 * After support moved money or learned of it (charge, refund, void, decline, capture, release, prepull, sync): the
 * transaction lists and the dashboard's work queue, whose counts the lists make (a tile still offering "1 declined
 * charge" to an empty list would send support to nothing).
 */
export const refreshTransactions = (queryClient: QueryClient) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: ['support', 'transactions'] }), queryClient.invalidateQueries({ queryKey: ['support', 'queue'] })]);
