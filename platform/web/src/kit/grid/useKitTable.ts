import { type ColumnDef, getCoreRowModel, getFilteredRowModel, getPaginationRowModel, getSortedRowModel, type Row, useReactTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { compareValues, matchesText } from './cellValues';
import type { GridState } from './gridState';
import type { GridColumn } from './types';

export interface KitTableOptions<T> {
  data: readonly T[];
  columns: readonly GridColumn<T>[];
  state: GridState;
  visible: ReadonlySet<string>;
  getRowId: (row: T) => string;
  /** Remote: the server already sorted, filtered and paged `data`. */
  remote: boolean;
  /** Local only: false shows every row (the grid then windows long lists). */
  paged: boolean;
  rowCount?: number;
}

function toColumnDefs<T>(columns: readonly GridColumn<T>[]): ColumnDef<T, unknown>[] {
  return columns.map((column) => ({
    id: column.id,
    accessorFn: (row: T) => column.accessor?.(row),
    enableSorting: column.sortable ?? false,
    enableColumnFilter: column.filterable ?? false,
    enableHiding: column.hideable ?? true,
    sortingFn: (a: Row<T>, b: Row<T>, id: string) => compareValues(a.getValue(id), b.getValue(id)),
    filterFn: (row: Row<T>, id: string, query: unknown) => matchesText(row.getValue(id), String(query ?? '')),
    sortUndefined: 'last' as const,
  }));
}

/** @tanstack/react-table configured from grid state; local mode sorts, filters and pages in memory. */
export function useKitTable<T>({ data, columns, state, visible, getRowId, remote, paged, rowCount }: KitTableOptions<T>) {
  const defs = useMemo(() => toColumnDefs(columns), [columns]);
  const columnVisibility = useMemo(() => Object.fromEntries(columns.map((c) => [c.id, visible.has(c.id)])), [columns, visible]);
  return useReactTable<T>({
    data: data as T[],
    columns: defs,
    getRowId: (row) => getRowId(row),
    state: {
      sorting: state.sortColumn ? [{ id: state.sortColumn, desc: state.sortOrder === 'desc' }] : [],
      columnFilters: Object.entries(state.filters).map(([id, value]) => ({ id, value })),
      globalFilter: state.search,
      pagination: { pageIndex: state.pageIndex, pageSize: state.pageSize },
      columnVisibility,
    },
    // Search looks at the visible columns only: what the user can see is what they search.
    globalFilterFn: (row, id, query) => visible.has(id) && matchesText(row.getValue(id), String(query ?? '')),
    getColumnCanGlobalFilter: () => true,
    manualSorting: remote,
    manualFiltering: remote,
    manualPagination: remote || !paged,
    ...(remote && rowCount !== undefined ? { rowCount } : {}),
    // The grid's own state store is the source of truth; the table only reads it.
    onStateChange: () => {},
    getCoreRowModel: getCoreRowModel(),
    ...(remote ? {} : { getSortedRowModel: getSortedRowModel(), getFilteredRowModel: getFilteredRowModel() }),
    ...(remote || !paged ? {} : { getPaginationRowModel: getPaginationRowModel() }),
    autoResetPageIndex: false,
  });
}
