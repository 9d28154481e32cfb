/**
 * A bare Fastify hello-world on the same Fastify as the API, the baseline of the API benchmark:
 *   node --import tsx scripts/bench/hello.ts <port>
 */
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
const Fastify = createRequire(join(ROOT, 'platform', 'server', 'package.json'))('fastify') as (opts: { logger: boolean }) => MinimalFastify;

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2] ?? 8595), host: '0.0.0.0' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
