import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyChildLogger, lazyChildLoggerFactory, RequestLinesController } from './lazyLogger';

function appAt(level: string, controller: RequestLinesController | null = new RequestLinesController()) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (l: string) => void lines.push(JSON.parse(l)) } },
    childLoggerFactory: lazyChildLoggerFactory,
    genReqId: () => 'req-12345678',
    ...(controller ? { logController: controller } : {}),
  });
  controller?.follow(app.log);
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

describe('request lines controller', () => {
  afterEach(() => vi.restoreAllMocks());

  it("does not make Fastify's request lines when the level is above info", async () => {
    const asked = vi.spyOn(LazyChildLogger.prototype, 'info');
    const { app, lines } = appAt('warn');
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(asked).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("without it, Fastify asks each request's logger for both lines at warn", async () => {
    const asked = vi.spyOn(LazyChildLogger.prototype, 'info');
    const { app, lines } = appAt('warn', null);
    await app.inject('/quiet');
    expect(asked.mock.calls.map((c) => c[1])).toEqual(['incoming request', 'request completed']);
    expect(lines).toEqual([]);
  });

  it('follows the level the app starts with, and takes no lines when logging is off', () => {
    const info = new RequestLinesController();
    info.follow(Fastify({ logger: { level: 'debug' } }).log);
    expect(info.requestLines).toBe(true);
    const error = new RequestLinesController();
    error.follow(Fastify({ logger: { level: 'error' } }).log);
    expect(error.requestLines).toBe(false);
    const off = new RequestLinesController();
    off.follow(Fastify({ logger: false }).log);
    expect(off.requestLines).toBe(false);
  });

  it('still logs a request that ended with an error, at error level, above info', () => {
    const controller = new RequestLinesController();
    controller.follow(Fastify({ logger: { level: 'warn' } }).log);
    const log = { info: vi.fn(), error: vi.fn() };
    const reply = { log, elapsedTime: 3 } as unknown as FastifyReply;
    const request = { log } as unknown as FastifyRequest;
    controller.requestCompleted(null, request, reply);
    controller.requestCompleted(new Error('socket hang up'), request, reply);
    expect(log.info).not.toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]?.[1]).toBe('request errored');
  });
});
