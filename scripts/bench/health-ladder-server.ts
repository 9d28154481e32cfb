/**
 * The API with the health ladder's extra routes (scripts/bench/health-ladder.ts), compiled by that script beside a
 * main.js of its own as production runs the API:
 *   PORT=<port> node --enable-source-maps <folder>/ladder.js
 * Ladder routes live under /api/ so the API's headers apply; no other server has them.
 */
import { KernelRoutes, ok } from '@portal/core';
import { kernelPlugin } from '@portal/server/kernel';
import { createServer } from '../../apps/server/src/server';

const server = await createServer();
const { app, database } = server;
const health = kernelPlugin.routes.find((r) => r.endpoint.path === KernelRoutes.health.path);
if (!health) throw new Error('the kernel has no /health route');
app.get('/api/ladder/route', async () => ({ hello: 'world' }));
app.get('/api/ladder/envelope', async () => ok({ status: 'ok', database: database.kind }));
// The handler reads the database and the reply off its context, and nothing else.
app.get('/api/ladder/handler', async (_req, reply) => ok(await health.handler({ database, reply } as never)));
await app.listen({ port: server.config.port, host: '127.0.0.1' });
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
