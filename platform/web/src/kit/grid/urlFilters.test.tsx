import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { readGridState, writeGridState } from './gridState';
import { readFilters, useUrlFilters, writeFilters } from './urlFilters';

const DEFAULTS = { from: '2025-01-31', to: '', number: '', payment: 'any' };

describe("a list's filter object kept in the query string", () => {
  it('reads each parameter present, the default for each absent one, and ignores the others', () => {
    const read = (q: string) => readFilters(new URLSearchParams(q), DEFAULTS);
    expect(read('')).toEqual(DEFAULTS);
    expect(read('number=CL265&payment=paid&bills.page=2&other=x')).toEqual({ ...DEFAULTS, number: 'CL265', payment: 'paid' });
    // An empty parameter is a field cleared on purpose, not the default.
    expect(read('from=')).toEqual({ ...DEFAULTS, from: '' });
    expect(read('number=a%20b%26c')).toEqual({ ...DEFAULTS, number: 'a b&c' });
  });

  it("leaves the defaults out, keeps a value emptied against a non-empty default, and keeps the grid's parameters", () => {
    const params = new URLSearchParams('bills.page=2&bills.sort=ClaimID&status=Pending');
    const written = writeFilters(params, { ...DEFAULTS, number: 'CL265', to: '2025-03-01' }, DEFAULTS);
    expect(written.toString()).toBe('bills.page=2&bills.sort=ClaimID&status=Pending&to=2025-03-01&number=CL265');
    // The params given are not changed.
    expect(params.toString()).toBe('bills.page=2&bills.sort=ClaimID&status=Pending');
    // Back to the defaults: the plain address again.
    expect(writeFilters(new URLSearchParams('number=CL265&to=2025-03-01&payment=paid'), DEFAULTS, DEFAULTS).toString()).toBe('');
    expect(writeFilters(new URLSearchParams(), { ...DEFAULTS, from: '' }, DEFAULTS).toString()).toBe('from=');
  });

  it('round-trips any values', () => {
    const values = { from: '', to: '2025-03-01', number: 'x=1&y', payment: 'unpaid' };
    expect(readFilters(writeFilters(new URLSearchParams('q=1'), values, DEFAULTS), DEFAULTS)).toEqual(values);
  });

  it("puts the names under a prefix, apart from the grid's own keys under the same prefix", () => {
    const defaults = { from: '2025-01-01', to: '2025-03-31' };
    const params = writeFilters(new URLSearchParams('ledger-card.page=3&from=x'), { from: '2025-02-01', to: '2025-03-31' }, defaults, 'ledger-card');
    expect(params.toString()).toBe('ledger-card.page=3&from=x&ledger-card.from=2025-02-01');
    expect(readFilters(params, defaults, 'ledger-card')).toEqual({ from: '2025-02-01', to: '2025-03-31' });
    const grid = { pageSize: 20, pageSizes: [20] };
    expect(readGridState(params, 'ledger-card', grid).pageIndex).toBe(2);
    // The grid writing its state leaves the filters alone.
    const after = writeGridState(params, 'ledger-card', { ...readGridState(params, 'ledger-card', grid), pageIndex: 0 }, grid);
    expect(readFilters(after, defaults, 'ledger-card')).toEqual({ from: '2025-02-01', to: '2025-03-31' });
  });

  it('gives a page the filters of the address it opens', () => {
    function Probe() {
      const [values] = useUrlFilters(DEFAULTS);
      return <output>{JSON.stringify(values)}</output>;
    }
    const render = (path: string) =>
      JSON.parse(
        renderToString(
          <MemoryRouter initialEntries={[path]}>
            <Probe />
          </MemoryRouter>,
        )
          .replace(/^<output>|<\/output>$/g, '')
          .replaceAll('&quot;', '"'),
      );
    expect(render('/claims')).toEqual(DEFAULTS);
    expect(render('/claims?number=CL265&from=&bills.page=2')).toEqual({ ...DEFAULTS, number: 'CL265', from: '' });
  });
});
