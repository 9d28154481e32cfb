/**
 * A bare Fastify hello-world on the same Fastify as the API, the baseline of the API benchmark:
 *   node --import tsx scripts/bench/hello.ts <port> [--api-headers]
 *
 * With --api-headers it also sends what every API answer must carry (the OWASP security headers and a request id
 * from randomUUID, by the API's own hook): the most /health could reach with those headers, printed beside the bare
 * one so the share the headers take is visible in every run. The budget stays against the bare hello-world.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface MinimalFastify {
  get(path: string, handler: () => Promise<unknown>): void;
  listen(opts: { port: number; host: string }): Promise<string>;
  close(): Promise<void>;
}
const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
// fastify is a dependency of @portal/server, not of the root package.
const Fastify = createRequire(join(ROOT, 'platform', 'server', 'package.json'))('fastify') as (opts: object) => MinimalFastify;

const withApiHeaders = process.argv.includes('--api-headers');
const app = Fastify(withApiHeaders ? { logger: false, genReqId: () => randomUUID() } : { logger: false });
if (withApiHeaders) {
  const [{ registerResponseHeaders }, { Headers }] = await Promise.all([import('@portal/server/kernel'), import('@portal/core')]);
  registerResponseHeaders(app as never, Headers.requestId);
}
// /health with the headers: the API's hook tells API paths from site pages by the path.
app.get(withApiHeaders ? '/health' : '/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2] ?? 8595), host: '0.0.0.0' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
