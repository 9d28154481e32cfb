import { useLookups } from '@portal/web';
import { lookupNames, useLookupLabel } from '@portal/web/kit';
import { useMemo } from 'react';

/**
 * Statuses and bill types from the lookup cache, and their names in the page's language (the kit's lookup names):
 * the lists keep the server's items, whose keys are what goes back to the server.
 */
export function useClaimLookups() {
  const statuses = useLookups('Claim Status');
  const billTypes = useLookups('Bill Entry Type');
  const label = useLookupLabel();
  return useMemo(
    () => ({
      statuses,
      billTypes,
      label,
      statusNames: lookupNames(statuses, label),
      billTypeNames: lookupNames(billTypes, label),
    }),
    [statuses, billTypes, label],
  );
}
