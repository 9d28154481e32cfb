import { describe, expect, it } from 'vitest';
import { computeWindow, scrollToRow } from './windowing';

describe('windowing', () => {
  it('renders the visible rows plus overscan', () => {
    expect(computeWindow({ scrollTop: 0, viewportHeight: 400, rowHeight: 40, rowCount: 1000, overscan: 2 })).toEqual({
      start: 0,
      end: 13,
      padTop: 0,
      padBottom: 987 * 40,
    });
    expect(computeWindow({ scrollTop: 4000, viewportHeight: 400, rowHeight: 40, rowCount: 1000, overscan: 2 })).toEqual({
      start: 98,
      end: 113,
      padTop: 98 * 40,
      padBottom: 887 * 40,
    });
    expect(computeWindow({ scrollTop: 0, viewportHeight: 400, rowHeight: 40, rowCount: 0 })).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('always covers the viewport and keeps total height constant', () => {
    let seed = 3;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 500; i++) {
      const rowHeight = 10 + Math.floor(next() * 50);
      const rowCount = Math.floor(next() * 5000);
      const viewportHeight = Math.floor(next() * 1200);
      const scrollTop = Math.floor(next() * rowCount * rowHeight * 1.1);
      const w = computeWindow({ scrollTop, viewportHeight, rowHeight, rowCount, overscan: 3 });
      expect(w.padTop + (w.end - w.start) * rowHeight + w.padBottom).toBe(rowCount * rowHeight);
      expect(w.start).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeLessThanOrEqual(rowCount);
      const firstVisible = Math.floor(scrollTop / rowHeight);
      const lastVisible = Math.min(rowCount - 1, Math.floor((scrollTop + viewportHeight - 1) / rowHeight));
      if (firstVisible < rowCount) {
        expect(w.start).toBeLessThanOrEqual(firstVisible);
        expect(w.end).toBeGreaterThan(lastVisible);
      }
      // Bounded DOM: never more than the viewport's rows plus overscan.
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(viewportHeight / rowHeight) + 1 + 6);
    }
  });

  it('scrolls a row into view', () => {
    const v = { scrollTop: 400, viewportHeight: 200, rowHeight: 40 };
    expect(scrollToRow(5, v)).toBe(200);
    expect(scrollToRow(11, v)).toBeNull();
    expect(scrollToRow(20, v)).toBe(640);
  });
});
