import { describe, expect, it } from 'vitest';
import { pageSelectionState, type Selection, type SelectionAction, selectionReducer } from './selection';

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `r${from + i}`);

describe('selection reducer', () => {
  it('single mode keeps at most one row', () => {
    const opts = { mode: 'single' as const, max: 1000 };
    let s: Selection = new Set();
    s = selectionReducer(s, { type: 'toggle', id: 'a' }, opts);
    s = selectionReducer(s, { type: 'toggle', id: 'b' }, opts);
    expect([...s]).toEqual(['b']);
    expect(selectionReducer(s, { type: 'setPage', ids: ['x', 'y'], selected: true }, opts)).toBe(s);
    expect([...selectionReducer(s, { type: 'toggle', id: 'b' }, opts)]).toEqual([]);
  });

  it('multiple mode selects and clears the page, keeping other pages', () => {
    const opts = { mode: 'multiple' as const, max: 1000 };
    let s: Selection = new Set(['other']);
    s = selectionReducer(s, { type: 'setPage', ids: ids(5), selected: true }, opts);
    expect(pageSelectionState(s, ids(5))).toBe('all');
    s = selectionReducer(s, { type: 'toggle', id: 'r2' }, opts);
    expect(pageSelectionState(s, ids(5))).toBe('some');
    s = selectionReducer(s, { type: 'setPage', ids: ids(5), selected: false }, opts);
    expect([...s]).toEqual(['other']);
    expect(pageSelectionState(s, ids(5))).toBe('none');
  });

  it('never exceeds the cap and none mode never selects', () => {
    let seed = 11;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let run = 0; run < 200; run++) {
      const max = 1 + Math.floor(next() * 20);
      let s: Selection = new Set();
      let none: Selection = new Set();
      for (let step = 0; step < 30; step++) {
        const r = next();
        const action: SelectionAction =
          r < 0.4
            ? { type: 'toggle', id: `r${Math.floor(next() * 40)}` }
            : r < 0.7
              ? { type: 'setPage', ids: ids(10, Math.floor(next() * 30)), selected: next() < 0.7 }
              : r < 0.95
                ? { type: 'replace', ids: ids(Math.floor(next() * 60)) }
                : { type: 'clear' };
        s = selectionReducer(s, action, { mode: 'multiple', max });
        none = selectionReducer(none, action, { mode: 'none', max });
        expect(s.size).toBeLessThanOrEqual(max);
        expect(none.size).toBe(0);
      }
    }
  });
});
