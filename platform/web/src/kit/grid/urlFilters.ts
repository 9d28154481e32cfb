import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { stateParam } from './gridState';

/** A list's own filters (outside the grid) as text, one query parameter each; the keys are the parameters' names. */
export type UrlFilterValues<K extends string> = Record<K, string>;

/**
 * The filters the query string holds under `prefix`: each key's parameter when present (an empty one included: a field
 * cleared on purpose, against a default that is not empty), else its default. Parameters not named in `defaults` are
 * ignored; checking a value (a date, a number, a choice) is the page's.
 */
export function readFilters<K extends string>(params: URLSearchParams, defaults: UrlFilterValues<K>, prefix = ''): UrlFilterValues<K> {
  const values = { ...defaults };
  for (const key of Object.keys(defaults) as K[]) {
    const raw = params.get(stateParam(prefix, key));
    if (raw !== null) values[key] = raw;
  }
  return values;
}

/**
 * A copy of the query string with the filters in it, beside the grid's and the app's parameters. A value equal to its
 * default is left out, so the plain address stays the default view; a value emptied against a non-empty default is
 * kept as `name=`.
 */
export function writeFilters<K extends string>(
  params: URLSearchParams,
  values: UrlFilterValues<K>,
  defaults: UrlFilterValues<K>,
  prefix = '',
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.keys(defaults) as K[]) {
    const name = stateParam(prefix, key);
    const value = values[key] ?? defaults[key];
    if (value === defaults[key]) next.delete(name);
    else next.set(name, value);
  }
  return next;
}

/**
 * A list's filter object (a search form, a date range, a search text) kept in the query string, as the grid keeps its
 * page and sort (useUrlGridState): Back from a record, a reload or a shared address show the same filtered list. The
 * setter takes the keys that change; it replaces the history entry, so a filter change (a keystroke included) does
 * not flood the back button. The grid goes back to its first page by itself when the filters are part of its
 * `queryKey` (stateForCallerKey). `defaults` may be made on each render (today's date): only its values count.
 * The address changes after the input event (a router transition): bind a field to a draft (a form, local state) that
 * the values are put back into when they change, not to the values themselves.
 */
export function useUrlFilters<K extends string>(defaults: UrlFilterValues<K>, prefix = ''): [UrlFilterValues<K>, (patch: Partial<UrlFilterValues<K>>) => void] {
  const [params, setParams] = useSearchParams();
  const defaultsKey = JSON.stringify(defaults);
  // defaultsKey stands for defaults' values: a new object with the same values keeps the one seen first.
  const stable = useMemo(() => defaults, [defaultsKey]);
  // The same object while the filters' values stay (the grid's page changing the address included): pages use it in
  // their queryKey and callbacks.
  const read = readFilters(params, stable, prefix);
  const valuesKey = JSON.stringify(read);
  const values = useMemo(() => read, [valuesKey]);
  const set = useCallback(
    (patch: Partial<UrlFilterValues<K>>) =>
      setParams((current) => writeFilters(current, { ...readFilters(current, stable, prefix), ...patch }, stable, prefix), { replace: true }),
    [setParams, stable, prefix],
  );
  return [values, set];
}
