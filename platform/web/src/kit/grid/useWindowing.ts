import { type RefObject, useCallback, useEffect, useState } from 'react';
import { computeWindow, scrollToRow, type WindowRange } from './windowing';

/** Tracks a scroll container and returns the rows to render; disabled returns every row. */
export function useWindowing(
  container: RefObject<HTMLElement | null>,
  { rowCount, rowHeight, enabled }: { rowCount: number; rowHeight: number; enabled: boolean },
): { range: WindowRange; onScroll: () => void; revealRow: (row: number) => void } {
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const onScroll = useCallback(() => {
    const el = container.current;
    if (el) setScroll({ top: el.scrollTop, height: el.clientHeight });
  }, [container]);
  useEffect(() => {
    const el = container.current;
    if (!enabled || !el) return;
    onScroll();
    const observer = new ResizeObserver(onScroll);
    observer.observe(el);
    return () => observer.disconnect();
  }, [container, enabled, onScroll]);
  const revealRow = useCallback(
    (row: number) => {
      const el = container.current;
      if (!enabled || !el) return;
      // Keep the sticky header row out of the calculation by revealing against the body viewport.
      const top = scrollToRow(row, { scrollTop: el.scrollTop, viewportHeight: el.clientHeight - rowHeight, rowHeight });
      if (top !== null) el.scrollTop = top;
    },
    [container, enabled, rowHeight],
  );
  const range = enabled
    ? computeWindow({ scrollTop: scroll.top, viewportHeight: scroll.height, rowHeight, rowCount })
    : { start: 0, end: rowCount, padTop: 0, padBottom: 0 };
  return { range, onScroll, revealRow };
}
