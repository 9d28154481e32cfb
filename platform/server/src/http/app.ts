import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import formbody from '@fastify/formbody';
import {
  type BrandManifest,
  brandForHost,
  canonicalTimeZone,
  decideAccess,
  type Endpoint,
  fail,
  Headers,
  hasAnyRole,
  IMPERSONATOR_ROLES,
  isSpecText,
  type Language,
  type Message,
  msg,
  ok,
  PLUGIN_API_VERSION,
  requestLanguage,
  schemaTextOf,
  type Text,
} from '@portal/core';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { type $ZodIssue, type ParseContext, safeParse } from 'zod/v4/core';
import zodEs from 'zod/v4/locales/es.js';
import { writeAudit, writeAudits } from '../audit';
import { AuditBuffer } from '../audit-buffer';
import { authenticate } from '../auth/session';
import { BUSY_RETRY_SECONDS, TokenMessages } from '../auth/token-route';
import { formTokenMatches } from '../auth/tokens';
import type { ServerConfig } from '../config';
import { BUSY_MESSAGE, type Database, DatabaseBusyError, type SqlClient } from '../db/database';
import { parsePosition } from '../db/replica';
import { translatedDocuments } from '../documents/services';
import kernelEs from '../i18n/es.json';
import { createTranslator, type Translator } from '../i18n/translator';
import validationTexts from '../i18n/validation.en.json';
import { auditService } from '../kernel-services/audit';
import { brandsService } from '../kernel-services/brands';
import { createKeysService } from '../kernel-services/createKeys';
import { identityService } from '../kernel-services/identity';
import { membersService } from '../kernel-services/members';
import { throttleService } from '../kernel-services/throttle';
import type { KernelServerPlugin, ServerRoute } from '../plugin';
import { wirePlugins } from '../plugin-graph';
import type { KernelServices, Services } from '../services';
import { type AuthUser, type RequestAuditEntry, type RouteContext, SENT, WithMessage } from './context';
import { registerDrain } from './drain';
import { ApiError } from './errors';
import { findBadText, parseId } from './input';
import { lazyChildLoggerFactory, RequestLinesController } from './lazyLogger';
import { loggedUrl, redactingLogger, registerResponseHeaders } from './security';
import { registerSites } from './sites';

export interface AppOptions {
  config: ServerConfig;
  database: Database;
  brands: readonly BrandManifest[];
  /** Kernel plugins first, then feature plugins. Feature plugin routes answer only on brands that enable them. */
  kernelPlugins: readonly KernelServerPlugin[];
  featurePlugins: readonly KernelServerPlugin[];
  /** The external services (mail, files, jobs ...); the kernel adds its own (identity, members, throttle, audit). */
  services: Services;
  logger?: boolean | object;
  /** Extra text for the brand index page (the demo logins). */
  demoUsers?: () => Promise<{ brand: string; role: string; userName: string; password: string }[]>;
}

export interface RegisteredRoute {
  plugin: string;
  kernel: boolean;
  method: string;
  url: string;
  access: ServerRoute['access'];
  endpoint: Endpoint;
}

const REQUEST_ID = /^[\w-]{8,64}$/;
const NO_AUTH = { state: 'none' } as const;
const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/**
 * Whether a call changes data: a state-changing method on a route not marked readOnly (a search sent as POST), or a
 * route marked `writes` (a GET the spec defines that changes data).
 */
const changesData = (method: string, r: ServerRoute) => r.writes === true || (STATE_CHANGING.has(method) && !r.readOnly);

type Issues = { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
const issuePath = (where: string, i: Issues['issues'][number]) => `${where}${i.path.length ? `.${i.path.map(String).join('.')}` : ''}`;

function zodMessage(e: Issues, where: string): string {
  return e.issues.map((i) => `${issuePath(where, i)}: ${i.message}`).join('; ');
}

/** The issues as a message for the user: each issue's own text translated when the catalogues have it. */
function zodText(e: Issues, where: string): Text {
  const params: Record<string, string | Text> = {};
  const template = e.issues
    .map((issue, n) => {
      params[`field${n}`] = issuePath(where, issue);
      // A shared schema's message is a kit key (validation.email): its English text, then the catalogues'.
      // A message with values (schemaText) goes by its template; its values go in after translating.
      params[`issue${n}`] = schemaTextOf(issue.message) ?? msg((validationTexts as Record<string, string>)[issue.message] ?? issue.message);
      // The spec's own sentences (specText) are said word for word, as the browser says them: no field before them.
      return isSpecText(issue.message) ? `{{issue${n}}}` : `{{field${n}}}: {{issue${n}}}`;
    })
    .join('; ');
  return msg(template, params);
}

/** zod's own texts per language (a contract's custom texts go through the catalogues); English is zod's default. */
const zodErrors: Partial<Record<Language, ParseContext<$ZodIssue>>> = { es: { error: zodEs().localeError } };

/** One kernel rule for every route: text with NUL or half a surrogate pair is refused before any schema sees it. */
function checkText(part: 'params' | 'query' | 'body', value: unknown) {
  const bad = findBadText(value);
  if (bad !== null)
    throw new ApiError(
      400,
      msg('{{field}}: contains characters that are not allowed (NUL or an unpaired surrogate).', { field: `${part}${bad ? `.${bad}` : ''}` }),
    );
}

type ContextFields = Omit<RouteContext, 'req' | 'reply' | 'language' | 'timeZone' | 't' | 'searchSql'> & {
  /** The caller's x-read-after position, parsed; null without one. */
  readAfter: bigint | null;
};

/**
 * A request's context. A class, so its language is worked out only when first asked (most requests never ask) by a
 * getter on the prototype: a getter written in an object literal would cost every request more than the lookup.
 */
class RequestContext implements RouteContext {
  #language: Language | undefined;
  #searchSql: SqlClient | undefined;
  readonly #readAfter: bigint | null;
  readonly body: unknown;
  readonly query: unknown;
  readonly params: unknown;
  readonly database: ContextFields['database'];
  readonly config: ContextFields['config'];
  readonly services: ContextFields['services'];
  readonly use: ContextFields['use'];
  readonly brand: ContextFields['brand'];
  readonly user: ContextFields['user'];
  readonly memberId: ContextFields['memberId'];
  readonly impersonating: boolean;
  readonly audit: ContextFields['audit'];
  readonly auditRead: ContextFields['auditRead'];
  readonly binary: ContextFields['binary'];
  readonly rawBody: ContextFields['rawBody'];

  constructor(
    readonly req: FastifyRequest,
    readonly reply: FastifyReply,
    private readonly tr: (req: FastifyRequest, message: Message) => string,
    f: ContextFields,
  ) {
    this.body = f.body;
    this.query = f.query;
    this.params = f.params;
    this.database = f.database;
    this.config = f.config;
    this.services = f.services;
    this.use = f.use;
    this.brand = f.brand;
    this.user = f.user;
    this.memberId = f.memberId;
    this.impersonating = f.impersonating;
    this.audit = f.audit;
    this.auditRead = f.auditRead;
    this.binary = f.binary;
    this.rawBody = f.rawBody;
    this.#readAfter = f.readAfter;
  }

  get searchSql(): SqlClient {
    const replica = this.database.replica;
    if (!replica) return this.database.sql;
    this.#searchSql ??= replica.routed(this.#readAfter);
    return this.#searchSql;
  }

  get language(): Language {
    this.#language ??= requestLanguage(this.req.headers);
    return this.#language;
  }

  get timeZone(): string {
    return canonicalTimeZone(this.req.headers[Headers.timeZone]) ?? this.config.businessTimeZone;
  }

  readonly t = (message: Message): string => this.tr(this.req, message);
}

/** The bytes of a request's body as sent, kept by keepRawBody for an endpoint that asks for them. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();
/**
 * A route's preParsing hook for an endpoint with `rawBody`: reads the body (no more than the server's bodyLimit), keeps
 * its bytes for the handler, and hands the same bytes on to the content-type parser.
 */
const keepRawBody =
  (limit: number) =>
  async (req: FastifyRequest, _reply: FastifyReply, payload: AsyncIterable<Buffer>): Promise<Readable> => {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      size += chunk.length;
      if (size > limit) throw Object.assign(new Error('request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
      parts.push(chunk);
    }
    const raw = Buffer.concat(parts);
    rawBodies.set(req, raw);
    return Object.assign(Readable.from([raw]), { receivedEncodedLength: raw.length });
  };

const isEntryList = (e: RequestAuditEntry | readonly RequestAuditEntry[]): e is readonly RequestAuditEntry[] => Array.isArray(e);

/** The kernel's and every plugin's translations of their messages (the kernel's first). */
export function serverTranslator(plugins: readonly KernelServerPlugin[]): Translator {
  return createTranslator([
    { source: 'kernel', catalogues: { es: kernelEs } },
    ...plugins.flatMap((p) => (p.messages ? [{ source: p.id, catalogues: p.messages }] : [])),
  ]);
}

/** A part of the request through its contract; a 'raw' endpoint (OAuth /token) parses with its contract itself. */
function parsePart(endpoint: Endpoint, key: 'body' | 'query' | 'params', value: unknown, req: FastifyRequest) {
  const s = endpoint[key];
  if (!s || endpoint.answer === 'raw') return undefined;
  const input = value ?? (key === 'body' ? undefined : {});
  const result = safeParse(s, input);
  if (result.success) return result.data;
  // Refused: parsed again in the user's language for zod's own texts (only a refusal pays for it).
  const inLanguage = zodErrors[requestLanguage(req.headers)];
  const worded = inLanguage ? safeParse(s, input, inLanguage) : result;
  throw new ApiError(400, zodText(worded.success ? result.error : worded.error, key));
}

function auditRefusal(buffer: AuditBuffer, req: FastifyRequest, r: ServerRoute, status: number, reason: string, who: AuthUser | null) {
  buffer.add({
    action: 'access.refused',
    outcome: 'refused',
    entity: 'route',
    entityId: `${req.method} ${r.endpoint.path}`,
    actorUserId: who?.id ?? null,
    actorName: who?.name ?? null,
    memberId: who?.memberId ?? null,
    ip: req.ip,
    requestId: req.id,
    detail: { status, reason },
  });
}

/** Fastify's refusals of a request it could not read, in our words (the catalogues translate them; its own name internals). */
const FASTIFY_REFUSALS: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This kind of content is not accepted here.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
};

export async function buildApp(opts: AppOptions): Promise<{ app: FastifyInstance; routes: RegisteredRoute[]; flushAudit: () => Promise<void> }> {
  const { config, database, services } = opts;
  const translator = serverTranslator([...opts.kernelPlugins, ...opts.featurePlugins]);
  /** A message in the language of the request's user. */
  const tr = (req: FastifyRequest, message: Message) => translator.t(message, requestLanguage(req.headers));
  const requestLines = new RequestLinesController();
  const app = Fastify({
    logger: redactingLogger(opts.logger ?? { level: config.logLevel }, config.logLevel),
    logController: requestLines,
    genReqId: (req) => {
      const given = req.headers[Headers.requestId];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: 10 * 1024 * 1024,
    // X-Forwarded-For counts from the proxies the deployment names (TRUST_PROXY), from no other address.
    trustProxy: opts.config.trustedProxies.length > 0 ? opts.config.trustedProxies : false,
  });
  requestLines.follow(app.log);
  await app.register(formbody);
  // Upload chunks ('binary' endpoints): the body reaches the handler as the request stream, unbuffered and unparsed;
  // the handler bounds what it reads. Other endpoints refuse it (415).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  registerResponseHeaders(app, Headers.requestId);

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (err instanceof ApiError) {
      // A provider failing (the scanner, a plugin's gateway): the user gets the plain message, the log its cause.
      if (err.status >= 500 && err.cause !== undefined) req.log.warn({ url: loggedUrl(req), status: err.status, cause: String(err.cause) }, String(err.text));
      // A busy answer (every place for password hashing taken) tells the caller when to come back, as a busy database does.
      if (err.status === 503) reply.header('retry-after', String(BUSY_RETRY_SECONDS));
      return reply.status(err.status).send(fail(tr(req, err.text), err.data));
    }
    if (err instanceof ZodError) return reply.status(400).send(fail(tr(req, zodText(err, 'request'))));
    if (err instanceof DatabaseBusyError) {
      // Saturated or restarting, not broken: the caller is told to come back shortly (sign-in answers in its own OAuth
      // shape).
      req.log.warn(
        { url: loggedUrl(req), reason: err.reason },
        err.reason === 'saturated' ? 'database busy: every connection is taken' : 'database unavailable: the connection was lost',
      );
      reply.status(503).header('retry-after', String(BUSY_RETRY_SECONDS));
      if (req.url.split('?')[0] === '/token') return reply.send({ error: 'temporarily_unavailable', error_description: tr(req, TokenMessages.busy) });
      return reply.send(fail(tr(req, BUSY_MESSAGE)));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'unhandled error');
    if (status === 500) return reply.status(500).send(fail(tr(req, 'An unexpected error has occured.')));
    // A request Fastify could not read (too large, an unaccepted content type, broken JSON): said in the reader's language.
    const refusal = FASTIFY_REFUSALS[(err as { code?: string }).code ?? ''];
    return reply.status(status).send(fail(refusal ? tr(req, refusal) : err.message));
  });

  const routes: RegisteredRoute[] = [];
  // The brand of each Host header seen, worked out once (a site has a handful of host names; the cap keeps
  // arbitrary Host headers from growing it without bound).
  const brandByHost = new Map<string, BrandManifest | null>();
  const brandOf = (req: FastifyRequest) => {
    const host = req.headers.host ?? '';
    let brand = brandByHost.get(host);
    if (brand === undefined) {
      brand = brandForHost(host, opts.brands);
      if (brandByHost.size >= 1000) brandByHost.clear();
      brandByHost.set(host, brand);
    }
    return brand;
  };
  const kernelServices: KernelServices = {
    ...services,
    ...translatedDocuments(services.pdf, services.sheets, translator.t),
    identity: identityService(database.sql),
    members: membersService(database.sql, services.jobs),
    throttle: throttleService(database.sql),
    createKeys: createKeysService(),
    messages: translator,
    audit: auditService(database.sql),
    brands: brandsService(opts.brands),
  };
  const wired = await wirePlugins(opts.featurePlugins, kernelServices, config, database);
  const auditBuffer = new AuditBuffer(database.sql, (err, lost) => app.log.error({ err, lost }, 'audit rows for reads could not be written'));
  // Closing: the route handlers still running finish first (their writes need the database), then the buffered
  // audit rows are written; the server closes the database after app.close().
  const { drain, drainRoutes } = registerDrain(app, app.log);
  app.addHook('onClose', async () => {
    await drainRoutes();
    await auditBuffer.close();
  });
  const checkResponses = config.checkResponses;

  const mount = (plugin: KernelServerPlugin, kernel: boolean) => {
    if (plugin.apiVersion !== PLUGIN_API_VERSION)
      throw new Error(`plugin ${plugin.id} uses plugin API ${plugin.apiVersion}; the kernel speaks ${PLUGIN_API_VERSION}`);
    const use = wired.useFor(plugin.id);
    for (const r of plugin.routes) {
      const { method, path } = r.endpoint;
      routes.push({ plugin: plugin.id, kernel, method, url: path, access: r.access, endpoint: r.endpoint });
      app.route({
        method,
        url: path,
        ...(r.endpoint.rawBody ? { preParsing: keepRawBody(app.initialConfig.bodyLimit ?? 1024 * 1024) } : {}),
        handler: (req, reply) => runRoute(plugin, kernel, r, use, req, reply),
      });
    }
  };

  async function runRoute(plugin: KernelServerPlugin, kernel: boolean, r: ServerRoute, use: RouteContext['use'], req: FastifyRequest, reply: FastifyReply) {
    drain.enter(reply);
    try {
      const brand = brandOf(req);
      if (!kernel && !brand?.plugins.includes(plugin.id)) {
        return reply.status(404).send(fail(tr(req, 'This feature is not available on this site.')));
      }
      // No credentials: no session to look up (the common case for public routes such as /health).
      const auth = req.headers.authorization ? await authenticate(req.headers.authorization, database.sql, config, brand?.id ?? null) : NO_AUTH;
      let user: AuthUser | null = auth.state === 'ok' ? auth.user : null;
      if (auth.state === 'invalid' && r.access !== 'public') {
        auditRefusal(auditBuffer, req, r, 401, auth.reason, null);
        return reply.status(401).send(fail(tr(req, 'Your session has expired. Please sign in again.')));
      }
      if (auth.state === 'invalid') user = null;
      const decision = decideAccess(r.access, user?.roles ?? null);
      if (decision === 'unauthenticated') {
        auditRefusal(auditBuffer, req, r, 401, 'not signed in', null);
        return reply.status(401).send(fail(tr(req, 'Please sign in to continue.')));
      }
      if (decision === 'forbidden') {
        auditRefusal(auditBuffer, req, r, 403, 'role', user);
        return reply.status(403).send(fail(tr(req, 'You do not have permission to do this.')));
      }

      if (user && (STATE_CHANGING.has(req.method) || r.writes) && !r.noFormToken) {
        const given = req.headers[Headers.antiForgery];
        if (!formTokenMatches(typeof given === 'string' ? given : undefined, user.sessionId, config.tokenSecret)) {
          auditRefusal(auditBuffer, req, r, 403, 'anti-forgery token', user);
          return reply.status(403).send(fail(tr(req, 'The request was refused: the anti-forgery token is missing or invalid. Please reload the page.')));
        }
      }

      let memberId = user?.memberId ?? null;
      let impersonating = false;
      // Who did it, from where: on every audit row of this request (the member as of the moment it is written).
      const stamped = <E extends { memberId?: number | null }>(e: E) => ({
        ...e,
        memberId: e.memberId ?? memberId,
        actorUserId: user?.id ?? null,
        actorName: user?.name ?? null,
        ip: req.ip,
        requestId: req.id,
      });
      // Many entries (a change to many records at once) go in one statement.
      const audit: RouteContext['audit'] = (e, tx) =>
        isEntryList(e) ? writeAudits(tx ?? database.sql, e.map(stamped)) : writeAudit(tx ?? database.sql, stamped(e));

      const header = req.headers[Headers.impersonate];
      if (typeof header === 'string' && header !== '') {
        const target = parseId(header);
        const refuse = async (message: string, reason: string) => {
          await audit({
            action: 'impersonation.request',
            outcome: 'refused',
            entity: 'route',
            entityId: `${req.method} ${r.endpoint.path}`,
            detail: { reason, target: header },
          });
          return reply.status(403).send(fail(tr(req, message)));
        };
        if (!user || !hasAnyRole(user.roles, IMPERSONATOR_ROLES)) return refuse('Only support staff may act on behalf of a member.', 'role');
        if (target === null || !(await kernelServices.members.isMemberAccount(target)))
          return refuse('The selected account is not a member account.', 'not a member');
        memberId = target;
        impersonating = true;
      }

      const binary = r.endpoint.bodyEncoding === 'binary';
      if (binary && !(req.body instanceof Readable)) throw new ApiError(415, 'Send the bytes as application/octet-stream.');
      if (!binary && req.body instanceof Readable) {
        req.body.resume();
        throw new ApiError(415, 'This call takes JSON, not application/octet-stream.');
      }
      const readAfterHeader = req.headers[Headers.readAfter];
      let readAfter: bigint | null = null;
      if (readAfterHeader !== undefined) {
        readAfter = typeof readAfterHeader === 'string' ? parsePosition(readAfterHeader) : null;
        if (readAfter === null)
          throw new ApiError(400, msg('The {{header}} header must be a database position: 16 hexadecimal digits.', { header: Headers.readAfter }));
      }
      checkText('params', req.params);
      checkText('query', req.query);
      if (!binary) checkText('body', req.body);
      const auditRead: RouteContext['auditRead'] = (e) => auditBuffer.add(stamped(e));
      const ctx = new RequestContext(req, reply, tr, {
        body: binary ? undefined : parsePart(r.endpoint, 'body', req.body, req),
        query: parsePart(r.endpoint, 'query', req.query, req),
        params: parsePart(r.endpoint, 'params', req.params, req),
        database,
        config,
        services: kernelServices,
        use,
        brand,
        user,
        memberId,
        impersonating,
        audit,
        auditRead,
        binary: binary ? (req.body as Readable) : null,
        rawBody: rawBodies.get(req) ?? null,
        readAfter,
      });
      if (impersonating) {
        const entry = {
          action: 'impersonation.request',
          memberId,
          entity: 'route',
          entityId: `${req.method} ${r.endpoint.path}`,
          detail: { staff: user?.name },
        };
        // A read on the member's behalf is recorded like every read: batched off the request's path (AuditBuffer).
        // A change's record is written before the change is made.
        if (changesData(req.method, r)) await audit(entry);
        else auditRead(entry);
      }
      const result = await r.handler(ctx);
      if (result === SENT || reply.sent) return reply;
      const data = result instanceof WithMessage ? result.data : (result ?? null);
      if (checkResponses && r.endpoint.response && (r.endpoint.answer ?? 'json') === 'json') {
        const checked = safeParse(r.endpoint.response, data);
        if (!checked.success) throw new Error(`${req.method} ${r.endpoint.path} answered outside its contract: ${zodMessage(checked.error, 'response')}`);
      }
      // A change's answer names the primary's position after it: the caller's next search waits for the replica to
      // reach it, or goes to the primary (read-your-writes across processes; docs/SCALING.md).
      // The change is made by now: if the position cannot be read, the answer goes without it (the caller's searches may
      // then miss the change for up to the replica's lag) rather than failing a change that was made.
      if (database.replica && changesData(req.method, r)) {
        const position = await database.replica.primaryPosition().catch((err: unknown) => {
          req.log.warn({ err }, 'the database position after a change could not be read: the answer goes without x-read-after');
          return null;
        });
        if (position) reply.header(Headers.readAfter, position);
      }
      if (result instanceof WithMessage) return reply.send(ok(data, tr(req, result.message)));
      return reply.send(ok(data));
    } finally {
      drain.leave(reply);
    }
  }

  for (const p of opts.kernelPlugins) mount(p, true);
  for (const p of wired.ordered) mount(p, false);
  await wired.init();
  const framePages = wired.ordered.flatMap((p) =>
    p.framePages ? [{ plugin: p.id, paths: p.framePages.paths, origins: p.framePages.origins(kernelServices) }] : [],
  );
  registerSites(app, { config, brands: opts.brands, brandOf, demoUsers: opts.demoUsers, framePages, tr });
  return { app, routes, flushAudit: () => auditBuffer.flush() };
}
