import { describe, expect, it } from 'vitest';
import { PRICE_RESULTS_FETCH, PRICE_RESULTS_MAX, type PriceLine } from '../contract';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { type SearchHint, searchView } from './results';

const line = (i: number): PriceLine => ({ Code: `c${i}`, Description: `Drug ${i}`, OurPrice: 1, AWPPrice: 2 });
const lines = (n: number) => Array.from({ length: n }, (_, i) => line(i));

/** The hint as the page words it: i18next's key (with its plural form) and {{values}}. */
function say(catalogue: typeof en, hint: SearchHint): string {
  const [group, name] = hint.key.split('.') as ['search', string];
  const values: Record<string, number> = hint.values ?? {};
  const search = catalogue[group] as Record<string, string>;
  const text = 'count' in values ? search[`${name}_${values.count === 1 ? 'one' : 'other'}`] : search[name];
  return (text ?? '').replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));
}

describe('searchView: the lines shown and the hint over them', () => {
  it('says the list is cut, and asks for a narrower search, when the server sent one line past the page', () => {
    const v = searchView({ enabled: true, isError: false, data: lines(PRICE_RESULTS_FETCH) });
    expect(v.lines).toHaveLength(PRICE_RESULTS_MAX);
    expect(v.hint).toEqual({ key: 'search.more', values: { max: 50 } });
    expect(say(en, v.hint)).toBe('Showing the first 50 lines: add a strength or form to narrow the search.');
    expect(say(es, v.hint)).toBe('Se muestran las primeras 50 líneas: añada una concentración o una forma para acotar la búsqueda.');
  });

  it('counts the lines when all of them came: 50 exactly is not cut', () => {
    const all = searchView({ enabled: true, isError: false, data: lines(PRICE_RESULTS_MAX) });
    expect(all.lines).toHaveLength(PRICE_RESULTS_MAX);
    expect(say(en, all.hint)).toBe('50 lines found.');
    expect(say(en, searchView({ enabled: true, isError: false, data: lines(1) }).hint)).toBe('1 line found.');
    expect(say(es, searchView({ enabled: true, isError: false, data: [] }).hint)).toBe('0 líneas encontradas.');
  });

  it('asks for 3 characters, says it is searching, or that the search failed', () => {
    expect(searchView({ enabled: false, isError: false, data: lines(3) })).toEqual({ lines: [], hint: { key: 'search.hint', values: { count: 3 } } });
    expect(say(en, searchView({ enabled: false, isError: false, data: undefined }).hint)).toBe('Type at least 3 characters to search.');
    expect(searchView({ enabled: true, isError: false, data: undefined })).toEqual({ lines: [], hint: { key: 'search.searching' } });
    const failed = searchView({ enabled: true, isError: true, data: lines(PRICE_RESULTS_FETCH) });
    expect(failed.hint).toEqual({ key: 'search.error' });
    expect(failed.lines).toHaveLength(PRICE_RESULTS_MAX);
  });
});
