import { type Rect, Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { gridVirtualizerOptions, OVERSCAN, windowFromItems } from './virtualRows';

const ROW = 40;
const HEAD = 80;
const VIEWPORT = 480;

/**
 * The virtualizer the grid builds (the library's own range and scroll logic, with the grid's options) over a stand-in
 * scroll container: `scrollTo` moves it like a user, `writes` records where the virtualizer scrolled it.
 */
function gridVirtualizer(rowCount: number, { headHeight = HEAD, viewportHeight = VIEWPORT } = {}) {
  // What the grid's scroller reports: the head and every row's height inside, the viewport's height outside.
  const container = { scrollTop: 0, scrollHeight: headHeight + rowCount * ROW, clientHeight: viewportHeight };
  const writes: number[] = [];
  let onOffset: ((offset: number, isScrolling: boolean) => void) | undefined;
  const virtualizer = new Virtualizer<typeof container & Element, Element>({
    ...gridVirtualizerOptions({ rowCount, rowHeight: ROW, headHeight, viewportHeight, enabled: true }),
    getScrollElement: () => container as typeof container & Element,
    observeElementRect: (_instance, cb: (rect: Rect) => void) => cb({ width: 800, height: viewportHeight }),
    observeElementOffset: (_instance, cb) => {
      onOffset = cb;
      cb(container.scrollTop, false);
    },
    scrollToFn: (offset) => {
      writes.push(offset);
      container.scrollTop = offset;
      onOffset?.(offset, false);
    },
  });
  virtualizer._didMount();
  virtualizer._willUpdate();
  return {
    virtualizer,
    writes,
    scrollTo(top: number) {
      container.scrollTop = top;
      onOffset?.(top, true);
    },
    window: () => windowFromItems(virtualizer.getVirtualItems(), rowCount, ROW),
  };
}

describe('grid windowing with @tanstack/react-virtual', () => {
  it('renders the rows visible below the sticky head plus the overscan, with spacers for the rest', () => {
    const grid = gridVirtualizer(100_000);
    const visibleRows = (VIEWPORT - HEAD) / ROW;
    expect(grid.window()).toEqual({ start: 0, end: visibleRows + OVERSCAN, padTop: 0, padBottom: (100_000 - visibleRows - OVERSCAN) * ROW });

    grid.scrollTo(50_000 * ROW);
    const w = grid.window();
    // Rows 50,000 to 50,009 are in view (the head covers the top 80 px of the viewport, where rows 49,998-49,999 are).
    expect(w.start).toBe(50_000 - 2 - OVERSCAN);
    expect(w.end).toBe(50_000 + visibleRows + OVERSCAN);
    expect(w.padTop).toBe(w.start * ROW);
    expect(w.padBottom).toBe((100_000 - w.end) * ROW);
  });

  it('always covers the viewport, keeps the total height and stays far below 100 rows anywhere in 100,000', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const rowCount = 100_000;
    const grid = gridVirtualizer(rowCount);
    const maxTop = rowCount * ROW + HEAD - VIEWPORT;
    for (const top of [0, 1, ROW - 1, maxTop, ...Array.from({ length: 300 }, () => Math.floor(next() * maxTop))]) {
      grid.scrollTo(top);
      const w = grid.window();
      expect(w.padTop + (w.end - w.start) * ROW + w.padBottom).toBe(rowCount * ROW);
      // Body rows under the viewport (the head hides the first HEAD px of it, but those rows count as in view).
      const firstInView = Math.max(0, Math.floor((top - HEAD) / ROW));
      const lastInView = Math.min(rowCount - 1, Math.floor((top + VIEWPORT - HEAD - 1) / ROW));
      expect(w.start).toBeLessThanOrEqual(firstInView);
      expect(w.end).toBeGreaterThan(lastInView);
      expect(w.end - w.start).toBeLessThanOrEqual(VIEWPORT / ROW + 1 + 2 * OVERSCAN);
    }
  });

  it('reveals a row outside the window: upwards just below the sticky head, downwards at the bottom edge', () => {
    const grid = gridVirtualizer(100_000);
    grid.scrollTo(1000 * ROW);
    // Row 1,000 sits right below the head: already in view, nothing scrolls.
    grid.virtualizer.scrollToIndex(1000, { align: 'auto' });
    grid.virtualizer.scrollToIndex(1009, { align: 'auto' });
    expect(grid.writes.at(-1) ?? 1000 * ROW).toBe(1000 * ROW);

    // One row up: the row goes below the head, not under it.
    grid.virtualizer.scrollToIndex(999, { align: 'auto' });
    expect(grid.writes.at(-1)).toBe(999 * ROW);
    expect(grid.window().start).toBeLessThanOrEqual(999);

    // Far down (Ctrl+End): the last row's bottom edge meets the viewport's bottom edge, and it is rendered.
    grid.virtualizer.scrollToIndex(99_999, { align: 'auto' });
    expect(grid.writes.at(-1)).toBe(100_000 * ROW + HEAD - VIEWPORT);
    expect(grid.window().end).toBe(100_000);
  });

  it('builds nothing when windowing is off, and spacers alone before the first measure', () => {
    expect(gridVirtualizerOptions({ rowCount: 500, rowHeight: ROW, headHeight: HEAD, viewportHeight: VIEWPORT, enabled: false }).count).toBe(0);
    expect(windowFromItems([], 500, ROW)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 500 * ROW });
    expect(windowFromItems([{ index: 3 }, { index: 4 }], 10, ROW)).toEqual({ start: 3, end: 5, padTop: 3 * ROW, padBottom: 5 * ROW });
  });
});
