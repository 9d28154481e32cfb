import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

/** The status an API call failed with (ApiCallError carries it; 0: no answer), else undefined. */
const statusOf = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined);

/**
 * What a failed load of one record means to the user: "not found" on a 404 (a retry would not find it either; the
 * server answers 404 for a record the caller may not see too), else a load error (a 5xx, no answer) a retry may cure.
 */
export const loadFailure = (error: unknown): 'notFound' | 'loadError' => (statusOf(error) === 404 ? 'notFound' : 'loadError');

/**
 * The words a page shows for a failed call it shows in place: the API's (the server's Message, or the client's words
 * for no answer, in the user's language: 'Error while getting data from server' for a finance call), else `fallback`.
 */
export const failureWords = (error: unknown, fallback: string): string =>
  typeof statusOf(error) === 'number' && error instanceof Error && error.message ? error.message : fallback;

/**
 * The server's words when a save was refused as stale (409: someone changed the record since it was loaded), else
 * null. The edit then says them with a Reload: sending the same Version again would only be refused again.
 */
export const saveConflict = (error: unknown): string | null => (statusOf(error) === 409 && error instanceof Error ? error.message : null);

/**
 * A record's edit form and a stale save: `onError` keeps the server's words (`conflict`) when the save was refused
 * as stale and marks the cached record out of date without fetching it (Cancel, then Edit, reads it anew); the typed
 * values stay in the form until `reload` fetches the record as it is now, which the form then shows. An edit that
 * holds its record (`useHeldRecord`) passes its `release`, so `reload` lets go of the held copy once the new one is read.
 * The save's call passes `{ notify: stale.notify }`, so the stale refusal is said once, by the notice.
 */
export function useStaleSave(queryKey: QueryKey, release?: () => void) {
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState<string | null>(null);
  return {
    conflict,
    /**
     * The save call's `notify`: a stale save is said by the form's notice alone (no toast beside it); any other failure
     * is toasted as usual.
     */
    notify: (failure: unknown) => saveConflict(failure) === null,
    clear: () => setConflict(null),
    onError: (error: unknown) => {
      const stale = saveConflict(error);
      setConflict(stale);
      if (stale) void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
    },
    reload: async () => {
      await queryClient.invalidateQueries({ queryKey });
      release?.();
      setConflict(null);
    },
  };
}
