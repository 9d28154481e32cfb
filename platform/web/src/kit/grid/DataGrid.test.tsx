import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ApiCallError } from '../../api/errors';
import { DataGrid } from './DataGrid';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key, i18n: { language: 'en' } }) }));
// The styles are vanilla-extract's, compiled by the build: here they are made at import, under a file scope of their own.
await vi.hoisted(async () => (await import('@vanilla-extract/css/fileScope')).setFileScope('DataGrid.test.css.ts'));

type Row = { id: string };
const columns = [{ id: 'id', header: 'Id', accessor: (r: Row) => r.id }];

/** A remote grid whose page failed with `error` (no DOM here: the query's state is set, then the grid drawn with it). */
function failedGrid(error: unknown, local = false) {
  // Drawn again, a failed query is not asked anew on the drawing (it would read as loading).
  const client = new QueryClient({ defaultOptions: { queries: { retryOnMount: false } } });
  const grid = () =>
    renderToString(
      <QueryClientProvider client={client}>
        {local ? (
          <DataGrid<Row> label="Rows" columns={columns} getRowId={(r) => r.id} data={[]} isError onRetry={() => {}} />
        ) : (
          <DataGrid<Row> label="Rows" columns={columns} getRowId={(r) => r.id} fetchPage={() => new Promise(() => {})} />
        )}
      </QueryClientProvider>,
    );
  // The first drawing makes the page's query; then it fails.
  grid();
  for (const q of client.getQueryCache().getAll()) q.setState({ status: 'error', error: error as Error, fetchStatus: 'idle', data: undefined });
  return grid();
}
/** The failure's cell: its words and its Try again (each tag a bar). */
const failureCell = (html: string) =>
  html
    .match(/<td [^>]*role="alert"[^>]*>(.*?)<\/td>/)?.[1]
    ?.replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '|') ?? null;

describe("a remote grid's failed page", () => {
  it("says the API's words in its alert, with its Try again (the call does not toast them too)", () => {
    expect(failureCell(failedGrid(new ApiCallError('Support transactions are down for maintenance.', 500)))).toBe(
      'Support transactions are down for maintenance. |grid.retry|',
    );
    // No answer at all: the client's words for it.
    expect(failureCell(failedGrid(new ApiCallError('The server could not be reached. Check your connection and try again.', 0)))).toBe(
      'The server could not be reached. Check your connection and try again. |grid.retry|',
    );
  });

  it("says the kit's words for a failure that is no API call's, and for a local grid's", () => {
    expect(failureCell(failedGrid(new Error('a bug')))).toBe('grid.error |grid.retry|');
    expect(failureCell(failedGrid(null, true))).toBe('grid.error |grid.retry|');
  });
});
