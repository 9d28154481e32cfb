import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type GridState, type GridStateDefaults, initialGridState, readGridState, writeGridState } from './gridState';

export type GridStateStore = [GridState, (next: GridState) => void];

/** Grid state in the query string under a per-grid prefix, so a reload restores it. */
export function useUrlGridState(prefix: string, defaults: GridStateDefaults): GridStateStore {
  const [params, setParams] = useSearchParams();
  const { pageSize, pageSizes, sortColumn, sortOrder } = defaults;
  const stable = useMemo(() => ({ pageSize, pageSizes, sortColumn, sortOrder }), [pageSize, pageSizes, sortColumn, sortOrder]);
  const state = useMemo(() => readGridState(params, prefix, stable), [params, prefix, stable]);
  const set = useCallback(
    // replace: paging and typing should not flood the back button.
    (next: GridState) => setParams((current) => writeGridState(current, prefix, next, stable), { replace: true }),
    [setParams, prefix, stable],
  );
  return [state, set];
}

/** In-memory state for grids without a stateKey or outside a router. */
export function useMemoryGridState(defaults: GridStateDefaults): GridStateStore {
  const [state, setState] = useState(() => initialGridState(defaults));
  return [state, setState];
}
