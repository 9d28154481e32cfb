/**
 * Proactive refresh (spec 01 section 4): refresh when the remaining seconds fall under 80% of the
 * stored lifetime, or when the lifetime itself is under 180 seconds.
 */
export function shouldRefresh(remainingSeconds: number, lifetimeSeconds: number): boolean {
  return remainingSeconds < 0.8 * lifetimeSeconds || lifetimeSeconds < 180;
}

/** Spec 01 section 9: at most 5 retries after a token refresh. */
export const MAX_RETRIES = 5;
