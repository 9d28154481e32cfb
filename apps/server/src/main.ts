import { ConfigError } from '@portal/server/kernel';
import { createServer } from './server';

try {
  const server = await createServer();
  const { config, app } = server;
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`API and brand sites on http://localhost:${config.port} (database: ${server.database.kind}, jobs: ${server.jobs.working ? 'on' : 'off'})`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  const msg = e instanceof ConfigError ? e.message : ((e as Error).stack ?? String(e));
  console.error(`The API server could not start: ${msg}`);
  process.exit(1);
}
