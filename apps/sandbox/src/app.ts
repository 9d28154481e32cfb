import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAggregator } from './aggregator';
import { openSandboxDb } from './db';
import { type GatewayOptions, gatewayOptionsFromEnv, registerGateway } from './gateway';
import { registerMail } from './mail';
import { registerPayer } from './payer';
import { registerScanner } from './scanner';
import { registerSms } from './sms';

export interface SandboxOptions {
  /** Directory for the sandbox's PGlite database; null keeps it in memory (tests). */
  dataDir: string | null;
  logger?: boolean | object;
  /** The card gateway's merchant credentials and timings; defaults from GATEWAY_* in the environment. */
  gateway?: Partial<GatewayOptions>;
}

/**
 * The sandbox: stand-ins for the external providers, on its own origin. For now a mail inbox.
 * Returns the app ready for inject or listen; closing the app closes its database.
 */
export async function createSandbox(opts: SandboxOptions): Promise<FastifyInstance> {
  const db = await openSandboxDb(opts.dataDir);
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 5 * 1024 * 1024 });
  await app.register(formbody);
  app.addHook('onClose', async () => {
    await db.close();
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'sandbox error');
    return reply.status(status).send({ error: status === 500 ? 'The sandbox failed to handle the request.' : err.message });
  });

  app.get('/health', async () => {
    const ok = await db.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return { status: ok ? 'ok' : 'degraded', service: 'sandbox' };
  });
  app.get('/', async (_req, reply) => reply.redirect('/mail'));
  registerMail(app, db);
  registerGateway(app, db, { ...gatewayOptionsFromEnv(), ...opts.gateway });
  registerSms(app, db);
  registerPayer(app, db);
  registerScanner(app);
  registerAggregator(app, db);
  return app;
}
