import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox } from './app';
import { sandboxListenOptions } from './listen';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');

const dataDir = join(resolve(REPO_ROOT, process.env.DATA_DIR ?? '.data'), 'sandbox');
let listen: { port: number; host: string };
try {
  listen = sandboxListenOptions();
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
try {
  const app = await createSandbox({ dataDir, logger: { level: process.env.LOG_LEVEL ?? 'info' } });
  await app.listen(listen);
  app.log.info(`sandbox providers on http://${listen.host}:${listen.port} (mail inbox at /mail, data in ${dataDir})`);
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
