import { type ColumnDef, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useMemo, useRef } from 'react';
import type { GridState } from './gridState';
import type { GridColumn } from './types';

export interface KitTableOptions<T> {
  /**
   * The rows the body shows: a remote page, a local page, or the windowed slice of a long local list. Sorting,
   * filtering and paging happen before (on the server, or in filterAndSortRows), so the table never holds a row
   * object per data row.
   */
  rows: readonly T[];
  columns: readonly GridColumn<T>[];
  state: GridState;
  visible: ReadonlySet<string>;
  getRowId: (row: T) => string;
}

function toColumnDefs<T>(columns: readonly GridColumn<T>[]): ColumnDef<T, unknown>[] {
  return columns.map((column) => ({
    id: column.id,
    accessorFn: (row: T) => column.accessor?.(row),
    enableSorting: column.sortable ?? false,
    enableColumnFilter: column.filterable ?? false,
    enableHiding: column.hideable ?? true,
  }));
}

/** @tanstack/react-table over the rows on screen: columns (visibility, sortable, filterable) and row ids. */
export function useKitTable<T>({ rows, columns, state, visible, getRowId }: KitTableOptions<T>) {
  const defs = useMemo(() => toColumnDefs(columns), [columns]);
  const columnVisibility = useMemo(() => Object.fromEntries(columns.map((c) => [c.id, visible.has(c.id)])), [columns, visible]);
  const sorting = useMemo(() => (state.sortColumn ? [{ id: state.sortColumn, desc: state.sortOrder === 'desc' }] : []), [state.sortColumn, state.sortOrder]);
  // The caller's getRowId is often a new function each render; the table reads the latest through a stable one.
  const rowId = useRef(getRowId);
  rowId.current = getRowId;
  const stableRowId = useMemo(() => (row: T) => rowId.current(row), []);
  return useReactTable<T>({
    data: rows as T[],
    columns: defs,
    getRowId: stableRowId,
    state: { sorting, columnVisibility },
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    // The grid's own state store is the source of truth; the table only reads it.
    onStateChange: () => {},
    getCoreRowModel: getCoreRowModel(),
  });
}
