import type { FetchPage, PageRequest } from './types';

/**
 * The ids of the first `count` rows of the grid's result, for "select all across pages": read page by page at the
 * largest page size the grid offers (the sizes its endpoint accepts: asking for `count` rows at once would be refused),
 * in the grid's order, until `count` ids or the last page.
 */
export async function loadAcross<T>(
  fetchPage: FetchPage<T>,
  request: PageRequest,
  count: number,
  pageSizes: readonly number[],
  getRowId: (row: T) => string,
): Promise<string[]> {
  const pageSize = Math.max(request.pageSize, ...pageSizes);
  const ids: string[] = [];
  for (let pageIndex = 0; ids.length < count; pageIndex++) {
    const page = await fetchPage({ ...request, pageIndex, pageSize });
    ids.push(...page.Items.map(getRowId));
    if (page.Items.length < pageSize) break;
  }
  return ids.slice(0, count);
}
