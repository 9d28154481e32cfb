import { describe, expect, it } from 'vitest';
import { filterAndSortRows, filtersKey, type LocalQuery } from './localRows';
import type { GridColumn } from './types';

interface Row {
  id: number;
  name: string;
  plan: string | undefined;
  amount: number | null;
}

const rows: Row[] = [
  { id: 1, name: 'Ana Chen', plan: 'Plus', amount: 20 },
  { id: 2, name: 'Ben Ito', plan: undefined, amount: 5 },
  { id: 3, name: 'Chloe Eze', plan: 'Basic', amount: null },
  { id: 4, name: 'Dev Chen', plan: 'Plus', amount: 20 },
  { id: 5, name: 'Eli Novak', plan: 'Premier', amount: 100 },
];

const columns: GridColumn<Row>[] = [
  { id: 'id', header: 'Id', accessor: (r) => r.id, sortable: true },
  { id: 'name', header: 'Name', accessor: (r) => r.name, sortable: true, filterable: true },
  { id: 'plan', header: 'Plan', accessor: (r) => r.plan, sortable: true, filterable: true },
  { id: 'amount', header: 'Amount', accessor: (r) => r.amount, sortable: true },
  { id: 'secret', header: 'Secret', accessor: (r) => `code-${r.id}`, sortable: false },
];
const all = new Set(columns.map((c) => c.id));
const query = (q: Partial<LocalQuery>): LocalQuery => ({ filters: {}, search: '', sortColumn: undefined, sortOrder: 'asc', ...q });
const ids = (result: readonly Row[]) => result.map((r) => r.id);

describe('filterAndSortRows (local grids)', () => {
  it('returns the data array itself when nothing filters or sorts', () => {
    expect(filterAndSortRows(rows, columns, query({}), all)).toBe(rows);
    expect(filterAndSortRows(rows, columns, query({ filters: { plan: '' } }), all)).toBe(rows);
  });

  it('keeps rows matching every column filter, case-insensitive contains', () => {
    expect(ids(filterAndSortRows(rows, columns, query({ filters: { name: 'chen' } }), all))).toEqual([1, 4]);
    expect(ids(filterAndSortRows(rows, columns, query({ filters: { name: 'chen', plan: 'PLUS' } }), all))).toEqual([1, 4]);
    expect(ids(filterAndSortRows(rows, columns, query({ filters: { name: 'chen', plan: 'basic' } }), all))).toEqual([]);
    // A filter on a column the grid does not have is ignored.
    expect(ids(filterAndSortRows(rows, columns, query({ filters: { nope: 'x' } }), all))).toEqual([1, 2, 3, 4, 5]);
  });

  it('searches the visible columns only', () => {
    expect(ids(filterAndSortRows(rows, columns, query({ search: 'code-3' }), all))).toEqual([3]);
    expect(ids(filterAndSortRows(rows, columns, query({ search: 'code-3' }), new Set(['id', 'name'])))).toEqual([]);
    expect(ids(filterAndSortRows(rows, columns, query({ search: 'pl', filters: { name: 'ana' } }), all))).toEqual([1]);
  });

  it('sorts by a sortable column, undefined last in both directions, ties in data order', () => {
    expect(ids(filterAndSortRows(rows, columns, query({ sortColumn: 'amount' }), all))).toEqual([2, 1, 4, 5, 3]);
    // null is an empty value: last ascending, first descending (compareValues), as the table library sorted it.
    expect(ids(filterAndSortRows(rows, columns, query({ sortColumn: 'amount', sortOrder: 'desc' }), all))).toEqual([3, 5, 1, 4, 2]);
    expect(ids(filterAndSortRows(rows, columns, query({ sortColumn: 'plan' }), all))).toEqual([3, 1, 4, 5, 2]);
    expect(ids(filterAndSortRows(rows, columns, query({ sortColumn: 'plan', sortOrder: 'desc' }), all))).toEqual([5, 1, 4, 3, 2]);
    // Not sortable, or unknown: data order.
    expect(filterAndSortRows(rows, columns, query({ sortColumn: 'secret', sortOrder: 'desc' }), all)).toBe(rows);
    expect(filterAndSortRows(rows, columns, query({ sortColumn: 'nope' }), all)).toBe(rows);
  });

  it('sorts text by the page language’s collation: Spanish puts ñ after every n, English beside it', () => {
    const names: Row[] = ['Ñuñez', 'Nuzzo', 'Oliva'].map((name, i) => ({ id: i + 1, name, plan: undefined, amount: null }));
    const byName = query({ sortColumn: 'name' });
    expect(filterAndSortRows(names, columns, byName, all, 'en').map((r) => r.name)).toEqual(['Ñuñez', 'Nuzzo', 'Oliva']);
    expect(filterAndSortRows(names, columns, byName, all, 'es').map((r) => r.name)).toEqual(['Nuzzo', 'Ñuñez', 'Oliva']);
  });

  it('filters then sorts 100,000 rows without touching the input', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => ({
      id: i + 1,
      name: `n${i % 7}`,
      plan: i % 3 === 0 ? 'Premier' : 'Basic',
      amount: (i * 7919) % 1000,
    }));
    const before = many.slice();
    const result = filterAndSortRows(many, columns, query({ filters: { plan: 'premier' }, sortColumn: 'amount', sortOrder: 'desc' }), all);
    expect(result).toHaveLength(33_334);
    expect(result.every((r) => r.plan === 'Premier')).toBe(true);
    expect(result.every((r, i) => i === 0 || (result[i - 1]?.amount ?? 0) >= (r.amount ?? 0))).toBe(true);
    expect(many).toEqual(before);
  });

  it('gives equal filters the same key whatever their order, and drops empty ones', () => {
    expect(filtersKey({ b: '2', a: '1' })).toBe(filtersKey({ a: '1', b: '2', c: '' }));
    expect(filtersKey({ a: '1' })).not.toBe(filtersKey({ a: '2' }));
  });
});
