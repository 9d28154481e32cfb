import { useLookups } from '@portal/web';
import { useMemo } from 'react';

/** Status and bill-type names from the lookup cache. */
export function useClaimLookups() {
  const statuses = useLookups('Claim Status');
  const billTypes = useLookups('Bill Entry Type');
  return useMemo(
    () => ({
      statuses,
      billTypes,
      statusNames: new Map(statuses.map((s) => [s.Key, s.Value])),
      billTypeNames: new Map(billTypes.map((b) => [b.Key, b.Value])),
    }),
    [statuses, billTypes],
  );
}
