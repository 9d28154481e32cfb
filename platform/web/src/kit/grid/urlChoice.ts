import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

/** A list filter's choice as the query string holds it: one of `choices`, else the fallback (absent, mistyped, stale). */
export function readChoice<T extends string>(params: URLSearchParams, name: string, choices: readonly T[], fallback: T): T {
  const raw = params.get(name);
  return raw !== null && (choices as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/** The query string with the choice in it; the fallback is left out, so the plain address stays the default view. */
export function writeChoice(params: URLSearchParams, name: string, value: string, fallback: string): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value === fallback) next.delete(name);
  else next.set(name, value);
  return next;
}

/**
 * A filter outside the grid (a status, a type) kept in the query string under `name`, beside the grid's own state
 * (useUrlGridState), so a reload, a shared address or a link from elsewhere ('/support-transactions?status=Authorized')
 * opens the list filtered. `name` null keeps it in memory (the same list inside a tab).
 */
export function useUrlChoice<T extends string>(name: string | null, choices: readonly T[], fallback: T): [T, (value: T) => void] {
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState(fallback);
  const set = useCallback(
    (value: T) => {
      if (name === null) setLocal(value);
      // replace: changing a filter should not flood the back button.
      else setParams((current) => writeChoice(current, name, value, fallback), { replace: true });
    },
    [name, fallback, setParams],
  );
  return [name === null ? local : readChoice(params, name, choices, fallback), set];
}
