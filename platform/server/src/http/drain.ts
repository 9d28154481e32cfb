import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';

/** How long close() waits for the route handlers still running before it goes on to end the database pool. */
export const DRAIN_TIMEOUT_MS = 15_000;
/** While closing, how often keep-alive connections that have gone idle are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * A graceful close, for a rolling restart behind a load balancer or `WORKERS=N` stopping (docs/SCALING.md).
 * Fastify stops taking connections and answers new requests 503, but two things it leaves to us:
 * - **Handlers still running.** A handler whose client has gone keeps running, and Fastify's close() does not wait for
 *   it: the server then ended the database pool under it, so its writes (a session, an audit row, a ledger entry after
 *   a provider call) failed half-way. close() now waits for every running route handler, up to DRAIN_TIMEOUT_MS.
 * - **Busy keep-alive connections.** Node closes the connections idle when close() starts; one busy then stayed open
 *   until its keep-alive timeout (72 s) after its answer. Answers given while closing say `Connection: close`, and
 *   connections that go idle are closed every IDLE_SWEEP_MS.
 * Per request it costs a Set add and delete.
 */
export class RouteDrain {
  private readonly running = new Set<FastifyReply>();
  private closing = false;
  private sweep: NodeJS.Timeout | null = null;
  private onIdle: (() => void) | null = null;

  /** A route handler starts answering this reply. */
  enter(reply: FastifyReply): void {
    this.running.add(reply);
    if (this.closing) closeAfterAnswer(reply);
  }

  /** The handler of this reply has finished (answered, thrown, or its client gone). */
  leave(reply: FastifyReply): void {
    this.running.delete(reply);
    if (this.onIdle && this.running.size === 0) this.onIdle();
  }

  /** Called as the close begins (Fastify's preClose): every answer from now on ends its connection. */
  beginClose(app: FastifyInstance): void {
    if (this.closing) return;
    this.closing = true;
    for (const reply of this.running) closeAfterAnswer(reply);
    this.sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    this.sweep.unref();
  }

  /** Resolves when no route handler is running, or after timeoutMs; returns how many were still running. */
  async drained(timeoutMs: number): Promise<number> {
    if (this.running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.onIdle = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
      this.onIdle = null;
    }
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    return this.running.size;
  }
}

function closeAfterAnswer(reply: FastifyReply): void {
  if (!reply.raw.headersSent) reply.header('connection', 'close');
}

/**
 * Registers the drain's start on the app (preClose). The caller awaits `drainRoutes()` in its onClose hook before it
 * closes what the handlers use (the audit buffer, then the database).
 */
export function registerDrain(app: FastifyInstance, log: FastifyBaseLogger, timeoutMs = DRAIN_TIMEOUT_MS) {
  const drain = new RouteDrain();
  app.addHook('preClose', (done) => {
    drain.beginClose(app);
    done();
  });
  const drainRoutes = async () => {
    const left = await drain.drained(timeoutMs);
    if (left > 0) log.warn({ left, timeoutMs }, 'closing with route handlers still running: they may fail when the database closes');
  };
  return { drain, drainRoutes };
}
