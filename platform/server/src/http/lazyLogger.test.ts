import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger, lazyChildLoggerFactory } from './lazyLogger';

function appAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (l: string) => void lines.push(JSON.parse(l)) } },
    childLoggerFactory: lazyChildLoggerFactory,
    genReqId: () => 'req-12345678',
  });
  const seen: unknown[] = [];
  app.get('/quiet', async (req) => {
    seen.push(req.log);
    return { ok: true };
  });
  app.get('/warns', async (req) => {
    seen.push(req.log);
    req.log.warn({ why: 'test' }, 'something odd');
    return { ok: true };
  });
  return { app, lines, seen };
}

describe('lazy request logger', () => {
  it('leaves a server without a logger as it is', async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyChildLoggerFactory });
    app.get('/', async (req) => {
      req.log.info('nothing');
      return { ok: true };
    });
    expect((await app.inject('/')).statusCode).toBe(200);
  });

  it('makes no child logger for a request that logs nothing at the level set', async () => {
    const { app, lines, seen } = appAt('warn');
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(seen[0]).toBeInstanceOf(LazyChildLogger);
    expect((seen[0] as LazyChildLogger).materialised).toBe(false);
    expect(lines).toEqual([]);
  });

  it('writes a line with the request id when a request logs at an enabled level', async () => {
    const { app, lines, seen } = appAt('warn');
    await app.inject('/warns');
    expect((seen[0] as LazyChildLogger).materialised).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, reqId: 'req-12345678', why: 'test', msg: 'something odd' });
  });

  it("keeps Fastify's request lines at info, each with the request id", async () => {
    const { app, lines } = appAt('info');
    await app.inject('/quiet');
    expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines.every((l) => l.reqId === 'req-12345678')).toBe(true);
  });
});
