import { useEffect } from 'react';
import { CARD_FORM_PAGES } from '../../access';

const isCardFormPath = (path: string) => {
  const lower = path.toLowerCase();
  return CARD_FORM_PAGES.some((p) => lower === p || lower.startsWith(`${p}/`));
};

/**
 * The site sends a CSP whose frame-src names the gateway only on the card-form pages, and a CSP belongs to the
 * document it came with. When this page was reached by in-app navigation from another page, the document's policy
 * still forbids frames, so the page loads itself once from the server. Answers whether the form can show here.
 */
export function useCardFormDocument(): boolean {
  const entry = typeof performance !== 'undefined' ? (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined) : undefined;
  const loadedAt = entry ? new URL(entry.name).pathname : window.location.pathname;
  const ok = isCardFormPath(loadedAt);
  useEffect(() => {
    if (!ok) window.location.reload();
  }, [ok]);
  return ok;
}
