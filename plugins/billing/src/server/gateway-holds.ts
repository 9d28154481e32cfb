import { deferred } from '@portal/testing/deferred';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** When a hold stops a gateway request: as it arrives (before the gateway runs it), or once run, before it answers. */
export type HoldPhase = 'onRequest' | 'onSend';
/** A gateway request to hold: its method and path (without the query), at a phase ('onRequest' when not said). */
export interface HoldAt {
  phase?: HoldPhase;
  method: string;
  path: RegExp;
}

/**
 * Test support: races between our calls made deterministic by holding one gateway request in the sandbox. `install`
 * adds the sandbox hooks; `interleave(at, held, other)` runs `held` with its gateway request `at` held, and `other`
 * once that request reached the gateway. The hold is let go when `other` is done or after `holdMs`, whichever comes
 * first: a call not serialized with `held` runs to its end inside the hold, a serialized one waits for `held` to finish.
 */
export function gatewayHolds(holdMs = 1500) {
  const holds: (Required<HoldAt> & { arrived: () => void; released: Promise<void> })[] = [];
  /** Holds the first gateway request a hold names, once, until the hold is released. */
  const holdIfNamed = async (phase: HoldPhase, req: FastifyRequest) => {
    const i = holds.findIndex((h) => h.phase === phase && h.method === req.method && h.path.test(req.url.split('?')[0] ?? ''));
    if (i < 0) return;
    const [hold] = holds.splice(i, 1);
    hold?.arrived();
    await hold?.released;
  };
  return {
    install(sandbox: FastifyInstance): void {
      sandbox.addHook('onRequest', async (req) => holdIfNamed('onRequest', req));
      sandbox.addHook('onSend', async (req, _reply, payload) => {
        await holdIfNamed('onSend', req);
        return payload;
      });
    },
    async interleave<A, B>(at: HoldAt, held: () => Promise<A>, other: () => Promise<B>): Promise<[A, B]> {
      const arrival = deferred();
      const released = deferred();
      holds.push({ phase: 'onRequest', ...at, arrived: arrival.release, released: released.promise });
      const first = held();
      await Promise.race([
        arrival.promise,
        first.then(() => {
          throw new Error(`the held call never sent ${at.method} ${at.path} to the gateway`);
        }),
      ]);
      const second = other();
      void Promise.race([second.then(() => undefined), new Promise((r) => setTimeout(r, holdMs))]).then(
        () => released.release(),
        () => released.release(),
      );
      return [await first, await second];
    },
  };
}
