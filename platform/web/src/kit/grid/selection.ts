import type { SelectionMode } from './types';

export const DEFAULT_MAX_SELECT_ACROSS_PAGES = 1000;

/** Selected row ids (from getRowId, so they survive paging and refetches). Treated as immutable. */
export type Selection = ReadonlySet<string>;

export type SelectionAction =
  | { type: 'toggle'; id: string }
  | { type: 'setPage'; ids: readonly string[]; selected: boolean }
  | { type: 'replace'; ids: readonly string[] }
  | { type: 'clear' };

export interface SelectionOptions {
  mode: SelectionMode;
  /** Hard cap for multiple selection, so "select all" cannot build an unbounded request. */
  max: number;
}

function capped(ids: Iterable<string>, max: number): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    if (out.size >= max) break;
    out.add(id);
  }
  return out;
}

export function selectionReducer(state: Selection, action: SelectionAction, { mode, max }: SelectionOptions): Selection {
  if (mode === 'none') return state.size === 0 ? state : new Set();
  switch (action.type) {
    case 'toggle': {
      if (state.has(action.id)) {
        const next = new Set(state);
        next.delete(action.id);
        return next;
      }
      if (mode === 'single') return new Set([action.id]);
      if (state.size >= max) return state;
      return new Set([...state, action.id]);
    }
    case 'setPage': {
      if (mode === 'single') return state;
      if (!action.selected) {
        const drop = new Set(action.ids);
        return new Set([...state].filter((id) => !drop.has(id)));
      }
      return capped([...state, ...action.ids], max);
    }
    case 'replace':
      return mode === 'single' ? capped(action.ids, 1) : capped(action.ids, max);
    case 'clear':
      return state.size === 0 ? state : new Set();
  }
}

/** Header checkbox state for the rows on the current page. */
export function pageSelectionState(state: Selection, pageIds: readonly string[]): 'all' | 'some' | 'none' {
  // Counted without a filtered copy: a windowed list's page is every row (100,000 ids).
  let count = 0;
  for (const id of pageIds) if (state.has(id)) count++;
  if (count === 0) return 'none';
  return count === pageIds.length ? 'all' : 'some';
}
