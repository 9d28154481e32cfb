import { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

type FastifyChildLoggerFactory = FastifyInstance['childLoggerFactory'];

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];
type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
/** pino's logger, as Fastify makes it. */
type PinoLike = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger that becomes pino's child logger (with the request id) only when something is logged at an
 * enabled level. Fastify makes a child per request, and pino serialises its bindings at once: at LOG_LEVEL=warn,
 * where a request normally logs nothing, that was work on every request for no line (issue 23's /health profile).
 * Calls below the parent's level return at once, as pino's own no-ops do.
 */
export class LazyChildLogger {
  #real: FastifyBaseLogger | null = null;
  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.#real ??= this.parent.child(this.bindings, this.options);
    return this.#real;
  }
  /** Whether this logger was ever needed (for tests). */
  get materialised(): boolean {
    return this.#real !== null;
  }
  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }
  set level(value: string) {
    this.real.level = value;
  }
  private log(level: Level, args: unknown[]) {
    if (this.#real === null && !this.parent.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]) {
    this.log('trace', args);
  }
  debug(...args: unknown[]) {
    this.log('debug', args);
  }
  info(...args: unknown[]) {
    this.log('info', args);
  }
  warn(...args: unknown[]) {
    this.log('warn', args);
  }
  error(...args: unknown[]) {
    this.log('error', args);
  }
  fatal(...args: unknown[]) {
    this.log('fatal', args);
  }
  silent() {}
  isLevelEnabled(level: string): boolean {
    return ((this.#real as PinoLike | null) ?? this.parent).isLevelEnabled(level);
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory with LazyChildLogger; a route with its own log level gets pino's child at once. */
export const lazyChildLoggerFactory: FastifyChildLoggerFactory = (logger, bindings, options) => {
  // Fastify's null logger (logging off) has nothing to defer: its children are itself.
  if (typeof (logger as Partial<PinoLike>).isLevelEnabled !== 'function') return logger.child(bindings, options);
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyChildLogger(logger as PinoLike, bindings, options) as unknown as FastifyBaseLogger;
};

/**
 * Fastify's log lines about each request ('incoming request', 'request completed') are at info level. At a level
 * above it (LOG_LEVEL=warn, error) every request still built their objects and asked the logger, for no line: up to
 * 1.5 µs of /health's 36 (issue 23, thirty-second pass). This controller leaves them out unless the app's logger takes
 * info when the app starts (`follow`); a request that fails still gets its 'request errored' line, and Fastify's other
 * lines go as before. Setting the logger to info later, at run time, does not bring them back.
 */
export class RequestLinesController extends LogController {
  #infoLogged = true;

  /** Reads the app's logger's level: Fastify's null logger (logging off) writes nothing, so takes no request lines. */
  follow(logger: FastifyBaseLogger): void {
    const pino = logger as Partial<PinoLike>;
    this.#infoLogged = typeof pino.isLevelEnabled === 'function' && pino.isLevelEnabled('info');
  }

  /** Whether the request lines are made (for tests). */
  get requestLines(): boolean {
    return this.#infoLogged;
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (this.#infoLogged) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (error || this.#infoLogged) super.requestCompleted(error, request, reply, metadata);
  }
}
