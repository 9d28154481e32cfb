import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import {
  type BrandManifest,
  brandForHost,
  decideAccess,
  fail,
  Headers,
  hasAnyRole,
  IMPERSONATOR_ROLES,
  MEMBER_ROLES,
  ok,
  PLUGIN_API_VERSION,
} from '@portal/core';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { writeAudit } from '../audit';
import { authenticate } from '../auth/session';
import { formTokenMatches } from '../auth/tokens';
import type { ServerConfig } from '../config';
import type { Database } from '../db/database';
import type { KernelServerPlugin, ServerRoute } from '../plugin';
import type { Services } from '../services';
import { type AuthUser, type RouteContext, SENT, WithMessage } from './context';
import { ApiError } from './errors';
import { registerSites } from './sites';

export interface AppOptions {
  config: ServerConfig;
  database: Database;
  brands: readonly BrandManifest[];
  /** Kernel plugins first, then feature plugins. Feature plugin routes answer only on brands that enable them. */
  kernelPlugins: readonly KernelServerPlugin[];
  featurePlugins: readonly KernelServerPlugin[];
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
}

const REQUEST_ID = /^[\w-]{8,64}$/;
const NO_AUTH = { state: 'none' } as const;
const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

function zodMessage(e: ZodError, where: string): string {
  return e.issues.map((i) => `${where}${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`).join('; ');
}

export async function buildApp(opts: AppOptions): Promise<{ app: FastifyInstance; routes: RegisteredRoute[] }> {
  const { config, database, services } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    genReqId: (req) => {
      const given = req.headers[Headers.requestId];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 10 * 1024 * 1024,
    trustProxy: false,
  });
  await app.register(formbody);
  // Synchronous hook: an async one costs a promise per request on every route.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(Headers.requestId, req.id);
    done();
  });

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (err instanceof ApiError) return reply.status(err.status).send(fail(err.message, err.data));
    if (err instanceof ZodError) return reply.status(400).send(fail(zodMessage(err, 'request')));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'unhandled error');
    return reply.status(status).send(fail(status === 500 ? 'An unexpected error has occured.' : err.message));
  });

  const routes: RegisteredRoute[] = [];
  const brandOf = (req: FastifyRequest) => brandForHost(req.headers.host, opts.brands);

  const mount = (plugin: KernelServerPlugin, kernel: boolean) => {
    if (plugin.apiVersion !== PLUGIN_API_VERSION)
      throw new Error(`plugin ${plugin.id} uses plugin API ${plugin.apiVersion}; the kernel speaks ${PLUGIN_API_VERSION}`);
    for (const r of plugin.routes) {
      routes.push({ plugin: plugin.id, kernel, method: r.method, url: r.url, access: r.access });
      app.route({
        method: r.method,
        url: r.url,
        handler: (req, reply) => runRoute(plugin, kernel, r, req, reply),
      });
    }
  };

  async function runRoute(plugin: KernelServerPlugin, kernel: boolean, r: ServerRoute, req: FastifyRequest, reply: FastifyReply) {
    const brand = brandOf(req);
    if (!kernel && !brand?.plugins.includes(plugin.id)) {
      return reply.status(404).send(fail('This feature is not available on this site.'));
    }
    // No credentials: no session to look up (the common case for public routes such as /health).
    const auth = req.headers.authorization ? await authenticate(req.headers.authorization, database.sql, config) : NO_AUTH;
    let user: AuthUser | null = auth.state === 'ok' ? auth.user : null;
    if (auth.state === 'invalid' && r.access !== 'public') {
      return reply.status(401).send(fail('Your session has expired. Please sign in again.'));
    }
    if (auth.state === 'invalid') user = null;
    const decision = decideAccess(r.access, user?.roles ?? null);
    if (decision === 'unauthenticated') return reply.status(401).send(fail('Please sign in to continue.'));
    if (decision === 'forbidden') return reply.status(403).send(fail('You do not have permission to do this.'));

    if (user && STATE_CHANGING.has(req.method) && !r.noFormToken) {
      const given = req.headers[Headers.antiForgery];
      if (!formTokenMatches(typeof given === 'string' ? given : undefined, user.sessionId, config.tokenSecret)) {
        return reply.status(403).send(fail('The request was refused: the anti-forgery token is missing or invalid. Please reload the page.'));
      }
    }

    const audit: RouteContext['audit'] = (e) =>
      writeAudit(database.sql, {
        ...e,
        memberId: e.memberId ?? ctx.memberId,
        actorUserId: user?.id ?? null,
        actorName: user?.name ?? null,
        ip: req.ip,
        requestId: req.id,
      });

    let memberId = user?.memberId ?? null;
    let impersonating = false;
    const header = req.headers[Headers.impersonate];
    if (typeof header === 'string' && header !== '') {
      if (!user || !hasAnyRole(user.roles, IMPERSONATOR_ROLES)) {
        return reply.status(403).send(fail('Only support staff may act on behalf of a member.'));
      }
      const target = Number(header);
      const isMember =
        Number.isInteger(target) &&
        (
          await database.sql.query(
            `SELECT 1 FROM users u JOIN user_roles r ON r.user_id = u.id
             WHERE u.member_id = $1 AND r.role = ANY($2::text[]) LIMIT 1`,
            [target, MEMBER_ROLES],
          )
        ).length > 0;
      if (!isMember) return reply.status(403).send(fail('The selected account is not a member account.'));
      memberId = target;
      impersonating = true;
    }

    const parse = (schema: ServerRoute['schemas'] extends infer S ? S : never, key: 'body' | 'query' | 'params', value: unknown) => {
      const s = schema?.[key];
      if (!s) return undefined;
      const result = s.safeParse(value ?? (key === 'body' ? undefined : {}));
      if (!result.success) throw new ApiError(400, zodMessage(result.error, key));
      return result.data;
    };
    const ctx: RouteContext = {
      req,
      reply,
      body: parse(r.schemas, 'body', req.body) as never,
      query: parse(r.schemas, 'query', req.query) as never,
      params: parse(r.schemas, 'params', req.params) as never,
      database,
      config,
      services,
      brand,
      user,
      memberId,
      impersonating,
      audit,
    };
    if (impersonating) {
      await audit({ action: 'impersonation.request', memberId, entity: 'route', entityId: `${req.method} ${r.url}`, detail: { staff: user?.name } });
    }
    const result = await r.handler(ctx);
    if (result === SENT || reply.sent) return reply;
    if (result instanceof WithMessage) return reply.send(ok(result.data, result.message));
    return reply.send(ok(result ?? null));
  }

  for (const p of opts.kernelPlugins) mount(p, true);
  for (const p of opts.featurePlugins) mount(p, false);
  registerSites(app, { config, brands: opts.brands, brandOf, demoUsers: opts.demoUsers });
  return { app, routes };
}
