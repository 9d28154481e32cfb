import type { FastifyInstance, FastifyReply } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { RouteDrain } from './drain';

const fakeReply = (headersSent = false) => {
  const headers: Record<string, string> = {};
  const reply = {
    raw: { headersSent },
    header: (name: string, value: string) => {
      headers[name] = value;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, headers };
};
const fakeApp = () => {
  const closeIdleConnections = vi.fn();
  return { app: { server: { closeIdleConnections } } as unknown as FastifyInstance, closeIdleConnections };
};

describe('RouteDrain', () => {
  it('has nothing to wait for when no handler runs', async () => {
    const drain = new RouteDrain();
    const { reply } = fakeReply();
    drain.enter(reply);
    drain.leave(reply);
    expect(await drain.drained(10_000)).toBe(0);
  });

  it('waits until the last running handler leaves', async () => {
    const drain = new RouteDrain();
    const a = fakeReply().reply;
    const b = fakeReply().reply;
    drain.enter(a);
    drain.enter(b);
    let done = false;
    const drained = drain.drained(10_000).then((left) => {
      done = true;
      return left;
    });
    drain.leave(a);
    await Promise.resolve();
    expect(done).toBe(false);
    drain.leave(b);
    expect(await drained).toBe(0);
  });

  it('gives up after the timeout and says how many handlers still run', async () => {
    const drain = new RouteDrain();
    drain.enter(fakeReply().reply);
    expect(await drain.drained(20)).toBe(1);
  });

  it('once closing, marks every answer not yet sent to end its connection, the running ones and the new ones', () => {
    const drain = new RouteDrain();
    const running = fakeReply();
    const sent = fakeReply(true);
    drain.enter(running.reply);
    drain.enter(sent.reply);
    expect(running.headers).toEqual({});
    const { app } = fakeApp();
    drain.beginClose(app);
    expect(running.headers).toEqual({ connection: 'close' });
    expect(sent.headers).toEqual({});
    const later = fakeReply();
    drain.enter(later.reply);
    expect(later.headers).toEqual({ connection: 'close' });
  });

  it('while closing, closes the connections gone idle until the drain is over', async () => {
    vi.useFakeTimers();
    try {
      const drain = new RouteDrain();
      const { app, closeIdleConnections } = fakeApp();
      drain.beginClose(app);
      vi.advanceTimersByTime(350);
      expect(closeIdleConnections).toHaveBeenCalledTimes(3);
      await drain.drained(1000);
      vi.advanceTimersByTime(1000);
      expect(closeIdleConnections).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
