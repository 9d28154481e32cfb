import { useEffect } from 'react';
import { BANK_FRAME_PAGES } from '../../access';

/**
 * The site sends a CSP whose frame-src names the aggregator only on the bank frame pages, and a CSP belongs to the
 * document it came with. Reached by in-app navigation from another page, the page loads itself once from the server.
 */
export function useFrameDocument(): boolean {
  const entry = typeof performance !== 'undefined' ? (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined) : undefined;
  const loadedAt = (entry ? new URL(entry.name).pathname : window.location.pathname).toLowerCase();
  const ok = BANK_FRAME_PAGES.some((p) => loadedAt === p.toLowerCase() || loadedAt.startsWith(`${p.toLowerCase()}/`));
  useEffect(() => {
    if (!ok) window.location.reload();
  }, [ok]);
  return ok;
}
