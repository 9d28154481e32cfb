/**
 * When the user last pressed, typed, scrolled or touched in this tab: a background poll (an unread count) is not the
 * user. Each call of a poll would refresh the access token and touch the session, so a tab left open on an unattended
 * screen would stay signed in until the session's absolute end, and the expiry warning (spec 01 section 4) would never
 * show. A poll made with pollWhileActive stops once the user has given no input for BACKGROUND_POLL_IDLE_MS; the
 * session then runs out as an idle one does (the warning, then the sign-out).
 */
export const BACKGROUND_POLL_IDLE_MS = 5 * 60_000;

let lastInput = Date.now();
let following = false;
const INPUTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** Starts noting the user's input in this tab (once; the app's start calls it, and every poll). */
export function followUserInput(): void {
  if (following || typeof window === 'undefined') return;
  following = true;
  const mark = () => {
    lastInput = Date.now();
  };
  for (const type of INPUTS) window.addEventListener(type, mark, { capture: true, passive: true });
}

/** How long ago the user last gave input in this tab. */
export const userAwayMs = (now = Date.now()) => now - lastInput;

/**
 * A query's refetchInterval for a background poll: every `ms` while the user has given input within
 * BACKGROUND_POLL_IDLE_MS, else none. The query asks again when it is next drawn (a navigation) after the user is back.
 */
export function pollWhileActive(ms: number): () => number | false {
  followUserInput();
  return () => (userAwayMs() < BACKGROUND_POLL_IDLE_MS ? ms : false);
}
