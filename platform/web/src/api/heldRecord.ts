import { useState } from 'react';

/**
 * The record an open edit works on (values and Version) and the id it was opened for. Kept from the edit's start: a
 * refetch (on reconnect, once the cached copy is stale or was marked so by a 409) does not replace it, so the typed
 * values and the Version the save sends stay the ones the user started from. Used by the edit forms of
 * contacts, coupons, notes and quote rules (the bill edit and the profile's editors keep theirs in their own state).
 */
export interface Held<T> {
  of: string | number;
  record: T;
}

/**
 * What an edit holds next: nothing while closed (`openFor` null); while open for a record, the one it holds for that
 * record, else the live one once read (the edit opening, or after `release`).
 */
export function nextHeld<T>(held: Held<T> | null, live: T | undefined, openFor: string | number | null): Held<T> | null {
  if (openFor === null) return null;
  if (held !== null && held.of === openFor) return held;
  return live === undefined ? null : { of: openFor, record: live };
}

/**
 * The record the edit shows and saves against (the live one while closed). `release` lets go of it, so the record as
 * read now is taken: the stale notice's Reload (once the record was read again) and a save that stays in the edit.
 */
export function useHeldRecord<T>(live: T | undefined, openFor: string | number | null) {
  const [held, setHeld] = useState<Held<T> | null>(null);
  const next = nextHeld(held, live, openFor);
  // Set while drawing (React's pattern for state kept from earlier renders): the form is drawn from it at once.
  if (next !== held) setHeld(next);
  return { record: next === null ? live : next.record, release: () => setHeld(null) };
}
