import { PRICE_RESULTS_MAX, PRICE_SEARCH_MIN, type PriceLine } from '../contract';

/** What the search's hint says (a key of the price-finder namespace and its values). */
export type SearchHint =
  | { key: 'search.hint'; values: { count: number } }
  | { key: 'search.error' | 'search.searching'; values?: undefined }
  | { key: 'search.found'; values: { count: number } }
  | { key: 'search.more'; values: { max: number } };

/**
 * The lines the page shows and the hint over them. The server answers one line past PRICE_RESULTS_MAX when more match
 * (contract): the page then shows the first PRICE_RESULTS_MAX and says the list is cut, asking for a narrower search,
 * instead of "50 lines found".
 */
export function searchView(state: { enabled: boolean; isError: boolean; data: readonly PriceLine[] | undefined }): {
  lines: readonly PriceLine[];
  hint: SearchHint;
} {
  if (!state.enabled) return { lines: [], hint: { key: 'search.hint', values: { count: PRICE_SEARCH_MIN } } };
  const data = state.data ?? [];
  const lines = data.slice(0, PRICE_RESULTS_MAX);
  if (state.isError) return { lines, hint: { key: 'search.error' } };
  if (!state.data) return { lines, hint: { key: 'search.searching' } };
  if (data.length > PRICE_RESULTS_MAX) return { lines, hint: { key: 'search.more', values: { max: PRICE_RESULTS_MAX } } };
  return { lines, hint: { key: 'search.found', values: { count: data.length } } };
}
