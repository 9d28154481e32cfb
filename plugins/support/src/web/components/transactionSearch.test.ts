import { describe, expect, it } from 'vitest';
import { exportBody, searchFields } from './transactionSearch';

describe('the transactions export request', () => {
  it("carries the grid's sort, search and filter, the checked rows and, on a member's tab, the member", () => {
    const grid = { sortColumn: 'Amount', sortOrder: 'asc' as const, search: '  visa ' };
    expect(exportBody(grid, { status: 'All', memberId: 42, selected: ['7', '3'] })).toEqual({
      SortColumn: 'Amount',
      SortOrder: 'ASC',
      Query: { Status: 'All', SearchString: 'visa' },
      TransactionIDs: [7, 3],
      MemberID: 42,
    });
  });

  it("asks in the order the grid's pages are asked in (an unknown or switched-off sort is the newest first's column)", () => {
    for (const grid of [
      { sortColumn: 'MemberName', sortOrder: 'desc' as const, search: '' },
      { sortColumn: undefined, sortOrder: 'asc' as const, search: '' },
      { sortColumn: 'PANumber', sortOrder: 'desc' as const, search: 'x'.repeat(150) },
    ]) {
      const body = exportBody(grid, { status: 'Declined', selected: [] });
      const page = searchFields(grid);
      expect([body.SortColumn, body.SortOrder, body.Query?.SearchString]).toEqual([page.SortColumn, page.SortOrder, page.SearchString]);
      expect(body.MemberID).toBeUndefined();
      expect(body.TransactionIDs).toBeUndefined();
    }
    expect(searchFields({ sortColumn: undefined, sortOrder: 'asc', search: '' })).toEqual({
      SortColumn: 'DateCreated',
      SortOrder: 'ASC',
      SearchString: undefined,
    });
  });
});
