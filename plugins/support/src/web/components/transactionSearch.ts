import type { TransactionSearchRequest } from '../../contract';
import { SUPPORT_TRANSACTION_SORTS, type SupportTxFilter } from '../../rules';

type Sort = (typeof SUPPORT_TRANSACTION_SORTS)[number];
const sortOf = (column: string | undefined): Sort =>
  (SUPPORT_TRANSACTION_SORTS as readonly string[]).includes(column ?? '') ? (column as Sort) : 'DateCreated';

/** What the transactions grid holds of its request: its sort and its search (the kit's PageRequest and GridState both carry them). */
export interface GridQuery {
  sortColumn: string | undefined;
  sortOrder: 'asc' | 'desc';
  search: string;
}

/** The grid's sort and search as support's search request writes them: the grid's pages and its export ask alike. */
export const searchFields = (q: GridQuery) => ({
  SortColumn: sortOf(q.sortColumn),
  SortOrder: q.sortOrder === 'asc' ? ('ASC' as const) : ('DESC' as const),
  SearchString: q.search.trim().slice(0, 100) || undefined,
});

/**
 * The export's request from the grid's current state: its filter, search and sort, the checked rows, and on a member's
 * tab the member (the file holds that member's charges only, in the order the grid shows them).
 */
export function exportBody(
  q: GridQuery,
  o: { status: SupportTxFilter; memberId?: number | undefined; selected: readonly string[] },
): Omit<TransactionSearchRequest, 'PageIndex' | 'PageSize'> & { TransactionIDs?: number[]; MemberID?: number } {
  const { SortColumn, SortOrder, SearchString } = searchFields(q);
  return {
    SortColumn,
    SortOrder,
    Query: { Status: o.status, SearchString },
    TransactionIDs: o.selected.length ? o.selected.map(Number) : undefined,
    MemberID: o.memberId,
  };
}
