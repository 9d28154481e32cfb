import type { SortOrder } from './types';

/** Everything a reload must restore (kept in the URL). pageIndex is zero-based; the URL shows 1-based. */
export interface GridState {
  pageIndex: number;
  pageSize: number;
  sortColumn: string | undefined;
  sortOrder: SortOrder;
  filters: Record<string, string>;
  search: string;
}

export const KIT_PAGE_SIZES: readonly number[] = [5, 10, 15, 25, 50, 100];
export const KIT_DEFAULT_PAGE_SIZE = 5;

export interface GridStateDefaults {
  pageSize: number;
  pageSizes: readonly number[];
  sortColumn?: string | undefined;
  sortOrder?: SortOrder | undefined;
}

/**
 * A grid's defaults from its props. The page sizes offered always include the default one: a default outside the
 * list left the pager's select showing another size than the rows on the page (its value matched no option), and a
 * reload with that size in the URL fell back to the default.
 */
export function gridStateDefaults(props: {
  pageSizes?: readonly number[] | undefined;
  defaultPageSize?: number | undefined;
  sortColumn?: string | undefined;
  sortOrder?: SortOrder | undefined;
}): GridStateDefaults {
  const listed = props.pageSizes ?? KIT_PAGE_SIZES;
  const pageSize = props.defaultPageSize ?? (listed.includes(KIT_DEFAULT_PAGE_SIZE) ? KIT_DEFAULT_PAGE_SIZE : (listed[0] ?? KIT_DEFAULT_PAGE_SIZE));
  const pageSizes = listed.includes(pageSize) ? listed : [...listed, pageSize].sort((a, b) => a - b);
  return { pageSizes, pageSize, sortColumn: props.sortColumn, sortOrder: props.sortOrder };
}

export function initialGridState(defaults: GridStateDefaults): GridState {
  return {
    pageIndex: 0,
    pageSize: defaults.pageSize,
    sortColumn: defaults.sortColumn,
    sortOrder: defaults.sortOrder ?? 'asc',
    filters: {},
    search: '',
  };
}

/** URL key for one piece of state; the prefix keeps two grids on a page apart. */
export const stateParam = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

const FILTER = 'f.';
/** Marks "sorting switched off" when the grid has a default sort, so a reload does not bring it back. */
const UNSORTED = '-';

/** Reads a grid's state from the query string; anything malformed falls back to the default. */
export function readGridState(params: URLSearchParams, prefix: string, defaults: GridStateDefaults): GridState {
  const base = initialGridState(defaults);
  const get = (key: string) => params.get(stateParam(prefix, key));
  const page = Number(get('page'));
  const size = Number(get('size'));
  const order = get('order');
  const filters: Record<string, string> = {};
  const filterPrefix = stateParam(prefix, FILTER);
  for (const [key, value] of params) {
    if (key.startsWith(filterPrefix) && key.length > filterPrefix.length && value !== '') filters[key.slice(filterPrefix.length)] = value;
  }
  return {
    pageIndex: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    pageSize: defaults.pageSizes.includes(size) ? size : base.pageSize,
    sortColumn: get('sort') === UNSORTED ? undefined : get('sort') || base.sortColumn,
    sortOrder: order === 'asc' || order === 'desc' ? order : base.sortOrder,
    filters,
    search: get('q') ?? '',
  };
}

/**
 * Writes a grid's state into a copy of the query string, leaving other grids' and the app's keys alone.
 * Defaults are omitted so URLs stay short and a bare URL means the default view.
 */
export function writeGridState(params: URLSearchParams, prefix: string, state: GridState, defaults: GridStateDefaults): URLSearchParams {
  const next = new URLSearchParams(params);
  const base = initialGridState(defaults);
  const set = (key: string, value: string | undefined, fallback: string | undefined) => {
    const name = stateParam(prefix, key);
    if (value === undefined || value === '' || value === fallback) next.delete(name);
    else next.set(name, value);
  };
  set('page', String(state.pageIndex + 1), '1');
  set('size', String(state.pageSize), String(base.pageSize));
  set('sort', state.sortColumn ?? (base.sortColumn ? UNSORTED : undefined), base.sortColumn);
  // The order only means something with a sort column.
  set('order', state.sortColumn ? state.sortOrder : undefined, base.sortColumn === state.sortColumn ? base.sortOrder : undefined);
  set('q', state.search, '');
  const filterPrefix = stateParam(prefix, FILTER);
  for (const key of [...next.keys()]) if (key.startsWith(filterPrefix)) next.delete(key);
  for (const [column, value] of Object.entries(state.filters).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== '') next.set(`${filterPrefix}${column}`, value);
  }
  return next;
}

/** State changes that alter the result set go back to the first page. */
export function withResetPage(state: GridState, patch: Partial<GridState>): GridState {
  const resets = 'pageSize' in patch || 'sortColumn' in patch || 'sortOrder' in patch || 'filters' in patch || 'search' in patch;
  return { ...state, ...patch, pageIndex: 'pageIndex' in patch && !resets ? (patch.pageIndex ?? 0) : resets ? 0 : state.pageIndex };
}

/**
 * The state a remote grid asks its page for, and keeps: a change of the caller's key (a filter kept outside the grid,
 * such as a status or a date range, that the caller puts in its queryKey) changes the result set as the grid's own
 * filters do, so the list starts again at its first page; the same key keeps the page (a page in the address on
 * arrival included).
 */
export function stateForCallerKey(state: GridState, seenKey: string, callerKey: string): GridState {
  return seenKey !== callerKey && state.pageIndex !== 0 ? { ...state, pageIndex: 0 } : state;
}

/**
 * Three-step header cycle: the column's first order, the other one, unsorted. A column's first order is ascending,
 * except the grid's default sort column, whose first order is its default (a list newest first by default goes to
 * oldest first in one click; before, that click only hid the arrow, or flipped the order with no arrow shown).
 * Unsorted keeps the default order, the one the list has when nothing is chosen.
 */
export function nextSort(
  state: GridState,
  column: string,
  defaults?: Pick<GridStateDefaults, 'sortColumn' | 'sortOrder'>,
): Pick<GridState, 'sortColumn' | 'sortOrder'> {
  const first: SortOrder = column === defaults?.sortColumn ? (defaults.sortOrder ?? 'asc') : 'asc';
  if (state.sortColumn !== column) return { sortColumn: column, sortOrder: first };
  if (state.sortOrder === first) return { sortColumn: column, sortOrder: first === 'asc' ? 'desc' : 'asc' };
  return { sortColumn: undefined, sortOrder: defaults?.sortOrder ?? 'asc' };
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** Keeps the page in range when the total shrinks (e.g. after a filter or delete). */
export function clampPage(pageIndex: number, total: number, pageSize: number): number {
  return Math.min(Math.max(0, pageIndex), pageCount(total, pageSize) - 1);
}
