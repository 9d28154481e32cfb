import { useEffect, useState } from 'react';

/** Dashboard data loads after 500 ms (spec 02 section 9), so the page renders first. */
export const DASHBOARD_DELAY_MS = 500;

export function useDelayed(ms = DASHBOARD_DELAY_MS): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setReady(true), ms);
    return () => clearTimeout(id);
  }, [ms]);
  return ready;
}
