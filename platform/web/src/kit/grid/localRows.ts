import { collatorFor, compareValues, matchesText } from './cellValues';
import type { GridState } from './gridState';
import type { GridColumn } from './types';

export type LocalQuery = Pick<GridState, 'filters' | 'search' | 'sortColumn' | 'sortOrder'>;

/**
 * A local grid's rows after its column filters, search and sort, over the plain row objects: the table model
 * (@tanstack/react-table) then only gets the rows on screen, not one row object per data row.
 *
 * The rules are the table library's ones this replaces: every column filter must match ("contains", case-insensitive,
 * over the accessor's value); the search matches when any visible column contains it; the sort column must be
 * sortable; undefined values sort last in both directions; ties keep the data order. Text sorts by the collation of
 * `language` (the page's). With no filter, search or sort the input array itself is returned (no copy).
 */
export function filterAndSortRows<T>(
  data: readonly T[],
  columns: readonly GridColumn<T>[],
  query: LocalQuery,
  visible: ReadonlySet<string>,
  language?: string,
): readonly T[] {
  const byId = new Map(columns.map((c) => [c.id, c]));
  const filters: [(row: T) => unknown, string][] = [];
  for (const [id, value] of Object.entries(query.filters)) {
    const column = byId.get(id);
    if (column && value !== '') filters.push([accessorOf(column), value]);
  }
  const searching = query.search !== '';
  const searched = searching ? columns.filter((c) => visible.has(c.id)).map(accessorOf) : [];
  let rows: readonly T[] = data;
  if (filters.length > 0 || searching) {
    const kept: T[] = [];
    for (const row of data) {
      if (!filters.every(([value, text]) => matchesText(value(row), text))) continue;
      if (searching && !searched.some((value) => matchesText(value(row), query.search))) continue;
      kept.push(row);
    }
    rows = kept;
  }
  const sortColumn = query.sortColumn ? byId.get(query.sortColumn) : undefined;
  if (!sortColumn?.sortable) return rows;
  const value = accessorOf(sortColumn);
  // Each value is read once (a sort calls the comparator n log n times), and the comparison runs over indexes.
  const values = rows.map(value);
  const order = Array.from({ length: rows.length }, (_, i) => i);
  const direction = query.sortOrder === 'desc' ? -1 : 1;
  const collator = collatorFor(language);
  order.sort((a, b) => {
    const va = values[a];
    const vb = values[b];
    if (va === undefined || vb === undefined) {
      if (va !== vb) return va === undefined ? 1 : -1;
      return a - b;
    }
    return direction * compareValues(va, vb, collator) || a - b;
  });
  return order.map((i) => rows[i] as T);
}

function accessorOf<T>(column: GridColumn<T>): (row: T) => unknown {
  return column.accessor ?? (() => undefined);
}

/** A stable key for a filter object, so a memo survives a new object with the same filters. */
export function filtersKey(filters: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.entries(filters)
      .filter(([, v]) => v !== '')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
