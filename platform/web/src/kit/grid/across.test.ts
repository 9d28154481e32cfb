import type { GridResult } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { loadAcross } from './across';
import type { PageRequest } from './types';

/** A server list of `rows` ids that, as the contracts do, refuses any page size but the ones it accepts. */
function list(rows: number, accepted: readonly number[]) {
  const asked: PageRequest[] = [];
  const fetchPage = async (r: PageRequest): Promise<GridResult<{ id: number }>> => {
    asked.push(r);
    if (!accepted.includes(r.pageSize)) throw new Error(`PageSize must be one of ${accepted.join(', ')}`);
    const start = r.pageIndex * r.pageSize;
    const ids = Array.from({ length: Math.max(0, Math.min(r.pageSize, rows - start)) }, (_, i) => ({ id: start + i + 1 }));
    return { Items: ids, ItemCount: rows };
  };
  return { fetchPage, asked };
}

const request: PageRequest = { pageIndex: 2, pageSize: 10, sortColumn: 'Amount', sortOrder: 'desc', filters: { Status: 'Pending' }, search: 'x' };
const id = (row: { id: number }) => String(row.id);

describe('select all across pages', () => {
  it("reads the rows at a page size the list accepts (before, it asked for all of them at once and was refused), in the grid's order and filters", async () => {
    const { fetchPage, asked } = list(37, [10, 20, 30]);
    const ids = await loadAcross(fetchPage, request, 37, [10, 20, 30], id);
    expect(ids).toEqual(Array.from({ length: 37 }, (_, i) => String(i + 1)));
    expect(asked.map((r) => [r.pageIndex, r.pageSize])).toEqual([
      [0, 30],
      [1, 30],
    ]);
    for (const r of asked) expect(r).toMatchObject({ sortColumn: 'Amount', sortOrder: 'desc', filters: { Status: 'Pending' }, search: 'x' });
  });

  it('stops at the most the grid selects, and at the last page when the list shrank meanwhile', async () => {
    const many = list(2400, [5, 10, 20, 50, 100]);
    expect(await loadAcross(many.fetchPage, request, 1000, [5, 10, 20, 50, 100], id)).toHaveLength(1000);
    expect(many.asked).toHaveLength(10);
    const shrunk = list(25, [10, 20, 30]);
    expect(await loadAcross(shrunk.fetchPage, request, 45, [10, 20, 30], id)).toHaveLength(25);
    expect(shrunk.asked).toHaveLength(1);
  });
});
