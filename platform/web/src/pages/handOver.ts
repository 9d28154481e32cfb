/** Where a page that stores a handed token is: no token in the address, storing it, stored, or it could not be. */
export type HandOverState = 'none' | 'pending' | 'stored' | 'failed';

/** The hand-overs under way, by token: a page rendered twice (strict mode, a re-render) hands a token over once. */
const handOvers = new Map<string, Promise<boolean>>();

/**
 * Hands `token` over once while a hand-over of it is under way, and says whether it was stored. Never rejects: a
 * failure is `false` for the page to show, not an unhandled rejection.
 */
export function handOverOnce(token: string, handOver: (token: string) => Promise<void>): Promise<boolean> {
  let handing = handOvers.get(token);
  if (!handing) {
    // Inside a promise, so a hand-over that throws before its promise counts as failed too.
    handing = new Promise<void>((resolve) => resolve(handOver(token)))
      .then(
        () => true,
        () => false,
      )
      .finally(() => handOvers.delete(token));
    handOvers.set(token, handing);
  }
  return handing;
}

/** The state of the page for the token in its address, given how the last hand-over it saw ended (null: none yet). */
export function handOverState(token: string | undefined, settled: { token: string; stored: boolean } | null): HandOverState {
  if (!token) return 'none';
  if (settled?.token !== token) return 'pending';
  return settled.stored ? 'stored' : 'failed';
}
