import { useEffect, useState } from 'react';

/** Longest wait for an idle moment: secondary controls show by then even on a page that never goes idle. */
export const IDLE_TIMEOUT_MS = 1500;

/**
 * True once the browser has had an idle moment after the first render (requestIdleCallback, at most `timeoutMs`
 * later). For controls around the page, not in it (the toolbar's search box, help dialogs, navigation badges):
 * their code and data then load after the page's own, instead of competing with it for the first paint of the
 * content. Their place is held meanwhile, so nothing shifts when they appear.
 */
export function useIdle(timeoutMs = IDLE_TIMEOUT_MS): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setIdle(true), { timeout: timeoutMs });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), Math.min(timeoutMs, 200));
    return () => clearTimeout(id);
  }, [timeoutMs]);
  return idle;
}
