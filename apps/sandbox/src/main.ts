import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox } from './app';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');

function port(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8090;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0 || n > 65535) {
    console.error(`SANDBOX_PORT must be a port number, got "${raw}"`);
    process.exit(1);
  }
  return n;
}

const dataDir = join(resolve(REPO_ROOT, process.env.DATA_DIR ?? '.data'), 'sandbox');
try {
  const app = await createSandbox({ dataDir, logger: { level: process.env.LOG_LEVEL ?? 'info' } });
  const p = port(process.env.SANDBOX_PORT);
  await app.listen({ port: p, host: process.env.HOST ?? '0.0.0.0' });
  app.log.info(`sandbox providers on http://localhost:${p} (mail inbox at /mail, data in ${dataDir})`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`The sandbox could not start: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
}
