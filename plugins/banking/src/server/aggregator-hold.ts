import type { IncomingMessage, ServerResponse } from 'node:http';
import { deferred } from '@portal/testing/deferred';

/** Which aggregator request to hold: its method and path (with the query). */
export type HeldRequest = (method: string, url: string) => boolean;

/** The aggregator's answer of an aggregator user's transactions (a sync's read). */
export const transactionsOf =
  (user: string): HeldRequest =>
  (method, url) =>
    method === 'GET' && url.startsWith(`/aggregator/api/users/${user}/transactions`);

/**
 * Test support: one aggregator request the test names is sent on to the sandbox at once, so the aggregator acts now
 * (answers, makes the link), and its answer reaches our API only once the test lets it go; meanwhile the test does
 * what should race it (a removal, a termination). `intercept` is the pass-through's (sandboxPassThrough) step;
 * `sandboxUrl` the sandbox's address, read when a request is held.
 */
export function aggregatorAnswerHold(sandboxUrl: () => string) {
  let wanted: HeldRequest | null = null;
  let arrived = deferred();
  let gate = deferred();
  return {
    /** Holds the answer of the next request `matches` names (one request). */
    holdNext(matches: HeldRequest): void {
      wanted = matches;
      arrived = deferred();
      gate = deferred();
    },
    /** Settles once that request's answer is in and held. */
    held: () => arrived.promise,
    /** Lets the held answer go on to our API (and any later one at once). */
    release: () => gate.release(),
    async intercept(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<boolean> {
      const url = req.url ?? '';
      if (!wanted?.(req.method ?? 'GET', url)) return false;
      wanted = null;
      const real = await fetch(`${sandboxUrl()}${url}`, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization ?? ''), ...(body.length ? { 'content-type': 'application/json' } : {}) },
        body: body.length ? body.toString() : undefined,
      });
      const text = await real.text();
      arrived.release();
      await gate.promise;
      res.writeHead(real.status, { 'content-type': 'application/json' }).end(text);
      return true;
    },
  };
}
