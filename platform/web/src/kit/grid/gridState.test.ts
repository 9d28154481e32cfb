import { describe, expect, it } from 'vitest';
import {
  clampPage,
  type GridState,
  gridStateDefaults,
  initialGridState,
  KIT_PAGE_SIZES,
  nextSort,
  readGridState,
  stateForCallerKey,
  withResetPage,
  writeGridState,
} from './gridState';

const defaults = { pageSize: 5, pageSizes: KIT_PAGE_SIZES, sortColumn: 'DateCreated', sortOrder: 'desc' as const };

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('grid state in the URL', () => {
  it('omits defaults and restores state', () => {
    const base = initialGridState(defaults);
    expect(writeGridState(new URLSearchParams(), 'claims', base, defaults).toString()).toBe('');
    const state: GridState = { pageIndex: 2, pageSize: 25, sortColumn: 'Name', sortOrder: 'asc', filters: { Status: 'Paid', Type: 'a b&c' }, search: 'smith' };
    const params = writeGridState(new URLSearchParams('other=1'), 'claims', state, defaults);
    expect(params.get('other')).toBe('1');
    expect(params.get('claims.page')).toBe('3');
    expect(params.get('claims.f.Type')).toBe('a b&c');
    expect(readGridState(params, 'claims', defaults)).toEqual(state);
  });

  it('keeps two grids apart', () => {
    const a = { ...initialGridState(defaults), pageIndex: 1, search: 'x', filters: { A: '1' } };
    const b = { ...initialGridState(defaults), pageIndex: 4, search: 'y' };
    let params = writeGridState(new URLSearchParams(), 'a', a, defaults);
    params = writeGridState(params, 'b', b, defaults);
    expect(readGridState(params, 'a', defaults)).toEqual(a);
    expect(readGridState(params, 'b', defaults)).toEqual(b);
    // Clearing a's filter leaves b alone.
    params = writeGridState(params, 'a', { ...a, filters: {} }, defaults);
    expect(readGridState(params, 'a', defaults).filters).toEqual({});
    expect(readGridState(params, 'b', defaults)).toEqual(b);
  });

  it('falls back on malformed values', () => {
    const params = new URLSearchParams('g.page=-3&g.size=7&g.order=sideways&g.sort=');
    const state = readGridState(params, 'g', defaults);
    expect(state).toEqual(initialGridState(defaults));
  });

  it('round-trips random states', () => {
    const next = rng(7);
    const words = ['', 'a', 'Zoë', 'x y', '1&2=3', '%', '+'];
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
    for (let i = 0; i < 300; i++) {
      const filters: Record<string, string> = {};
      for (const col of ['A', 'B.c', 'D']) {
        const v = pick(words);
        if (v) filters[col] = v;
      }
      const sortColumn = pick([undefined, 'A', 'DateCreated']);
      const state: GridState = {
        pageIndex: Math.floor(next() * 50),
        pageSize: pick(KIT_PAGE_SIZES),
        sortColumn,
        sortOrder: pick(['asc', 'desc'] as const),
        filters,
        search: pick(words),
      };
      const restored = readGridState(new URLSearchParams(writeGridState(new URLSearchParams(), 'p', state, defaults).toString()), 'p', defaults);
      // Without a sort column the order is meaningless and falls back to the default.
      expect(restored).toEqual(sortColumn ? state : { ...state, sortOrder: defaults.sortOrder });
    }
  });
});

describe('state transitions', () => {
  it('resets the page when the result set changes', () => {
    const s = { ...initialGridState(defaults), pageIndex: 3 };
    expect(withResetPage(s, { search: 'x' }).pageIndex).toBe(0);
    expect(withResetPage(s, { pageSize: 10 }).pageIndex).toBe(0);
    expect(withResetPage(s, { pageIndex: 5 }).pageIndex).toBe(5);
  });

  it('cycles sort and clamps pages', () => {
    const s = initialGridState({ pageSize: 5, pageSizes: KIT_PAGE_SIZES });
    const a = nextSort(s, 'Name');
    expect(a).toEqual({ sortColumn: 'Name', sortOrder: 'asc' });
    const b = nextSort({ ...s, ...a }, 'Name');
    expect(b).toEqual({ sortColumn: 'Name', sortOrder: 'desc' });
    expect(nextSort({ ...s, ...b }, 'Name')).toEqual({ sortColumn: undefined, sortOrder: 'asc' });
    expect(clampPage(9, 12, 5)).toBe(2);
    expect(clampPage(0, 0, 5)).toBe(0);
  });

  it("on the grid's default sort column (newest first), the first click sorts oldest first, then off with the default order, then back", () => {
    const s = initialGridState(defaults);
    expect(s).toMatchObject({ sortColumn: 'DateCreated', sortOrder: 'desc' });
    const a = nextSort(s, 'DateCreated', defaults);
    expect(a).toEqual({ sortColumn: 'DateCreated', sortOrder: 'asc' });
    const b = nextSort({ ...s, ...a }, 'DateCreated', defaults);
    expect(b).toEqual({ sortColumn: undefined, sortOrder: 'desc' });
    expect(nextSort({ ...s, ...b }, 'DateCreated', defaults)).toEqual({ sortColumn: 'DateCreated', sortOrder: 'desc' });
    // Other columns still start ascending; switched off, the list keeps its default (newest first) order.
    expect(nextSort(s, 'Amount', defaults)).toEqual({ sortColumn: 'Amount', sortOrder: 'asc' });
    expect(nextSort({ ...s, sortColumn: 'Amount', sortOrder: 'desc' }, 'Amount', defaults)).toEqual({ sortColumn: undefined, sortOrder: 'desc' });
    // The address keeps "unsorted" and reads it back with the default order.
    const off = { ...s, ...b };
    expect(readGridState(writeGridState(new URLSearchParams(), 'g', off, defaults), 'g', defaults)).toEqual(off);
  });
});

describe("a filter kept outside the grid (in the caller's queryKey)", () => {
  const onPage3 = { ...initialGridState(defaults), pageIndex: 2 };
  const before = JSON.stringify(['support', 'all', 'All']);
  const after = JSON.stringify(['support', 'all', 'Pending']);

  it('changed, asks for the first page of the new results at once (before, page 3 of them: results 41-60)', () => {
    expect(stateForCallerKey(onPage3, before, after).pageIndex).toBe(0);
    expect(stateForCallerKey(onPage3, before, after)).toEqual({ ...onPage3, pageIndex: 0 });
  });

  it('the same, keeps the page (paging on, or a page in the address on arrival) and the state as it is', () => {
    expect(stateForCallerKey(onPage3, after, after)).toBe(onPage3);
    const first = initialGridState(defaults);
    expect(stateForCallerKey(first, before, after)).toBe(first);
  });
});

describe("a grid's defaults", () => {
  it('offers the default page size even when the list of sizes leaves it out', () => {
    const d = gridStateDefaults({ pageSizes: [5, 10, 15, 25, 50, 100], defaultPageSize: 20 });
    expect(d.pageSize).toBe(20);
    expect(d.pageSizes).toEqual([5, 10, 15, 20, 25, 50, 100]);
    // A reload with the default size in the URL keeps it (it used to fall back to another size).
    const params = writeGridState(new URLSearchParams(), 'r', { ...initialGridState(d), pageSize: 20 }, d);
    expect(readGridState(params, 'r', d).pageSize).toBe(20);
  });

  it("keeps a list that has the default as it is, and takes the kit's sizes and default when none are given", () => {
    const sizes = [10, 20, 30] as const;
    expect(gridStateDefaults({ pageSizes: sizes, defaultPageSize: 20 }).pageSizes).toBe(sizes);
    expect(gridStateDefaults({})).toEqual({ pageSizes: KIT_PAGE_SIZES, pageSize: 5, sortColumn: undefined, sortOrder: undefined });
    expect(gridStateDefaults({ pageSizes: [10, 20] }).pageSize).toBe(10);
    expect(gridStateDefaults({ defaultPageSize: 20, sortColumn: 'Name', sortOrder: 'desc' })).toMatchObject({ sortColumn: 'Name', sortOrder: 'desc' });
  });
});
