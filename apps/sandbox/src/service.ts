import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** A request's validation problems in one line: `path: message; ...`. */
export const issuesText = (e: z.ZodError) => e.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');

export interface MerchantApiOptions {
  /** Every URL under this prefix needs the merchant's HTTP Basic credentials. */
  prefix: string;
  user: string;
  secret: string;
  /** The error text the real service answers to wrong credentials (401). */
  unauthorized: string;
  /** Creates the service's tables; run once, before the server is ready. */
  migrate: () => Promise<void>;
}

/**
 * What each sandbox service with a merchant API sets up alike (the card gateway, the bank aggregator): HTTP Basic
 * credentials compared in constant time on every call under its prefix, its tables migrated before the server is
 * ready, and JSON errors `{ error }` with input checked by zod.
 */
/** Whether a request carries these HTTP Basic credentials, compared in constant time. */
export function basicCredentials(user: string, secret: string): (req: FastifyRequest) => boolean {
  const want = Buffer.from(`Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`);
  return (req) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === want.length && timingSafeEqual(given, want);
  };
}

export function merchantApi(app: FastifyInstance, opts: MerchantApiOptions) {
  const authorized = basicCredentials(opts.user, opts.secret);
  const bad = (reply: FastifyReply, status: number, message: string) => reply.status(status).send({ error: message });
  /** The parsed value, or null after answering 400 with the problems. */
  const parse = <T>(schema: z.ZodType<T>, value: unknown, reply: FastifyReply): T | null => {
    const r = schema.safeParse(value ?? undefined);
    if (r.success) return r.data;
    void bad(reply, 400, `Invalid request: ${issuesText(r.error)}`);
    return null;
  };
  app.addHook('onReady', async () => {
    await opts.migrate();
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith(opts.prefix) && !authorized(req)) return reply.status(401).send({ error: opts.unauthorized });
  });
  return { bad, parse };
}
