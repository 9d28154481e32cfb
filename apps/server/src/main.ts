import cluster from 'node:cluster';
import { ConfigError, loadConfig } from '@portal/server/kernel';
import { parseWorkers, startPrimary } from './cluster';
import { REPO_ROOT } from './plugins';
import { checkPortFree, createServer, portInUse } from './server';

/**
 * The API entry. WORKERS=N (N > 1) runs N API processes on one port (node:cluster: the primary owns the port and
 * hands connections to the workers in turn); every process is a whole API against the same PostgreSQL database, so
 * any of them may answer any request (docs/SCALING.md).
 */
async function serve() {
  const server = await createServer();
  const { config, app } = server;
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    // Taken since the check at the start.
    await server.close();
    throw (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? portInUse(config.port) : e;
  }
  const who = cluster.isWorker ? ` (worker ${cluster.worker?.id}, pid ${process.pid})` : '';
  app.log.info(
    `API and brand sites on http://localhost:${config.port}${who} (database: ${server.database.kind}${server.database.replica ? ' with a read replica for searches' : ''}, jobs: ${server.jobs.working ? 'on' : 'off'})`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A worker whose primary is gone stops too, so no API process outlives `scripts/start`.
  if (cluster.isWorker) process.on('disconnect', stop);
}

try {
  const workers = parseWorkers(process.env);
  if (cluster.isPrimary) {
    // A taken port is said before the database is opened (the workers' port is the primary's).
    const { port, host } = loadConfig(process.env, REPO_ROOT);
    await checkPortFree(port, host);
  }
  if (workers > 1 && cluster.isPrimary) await startPrimary(workers);
  else await serve();
} catch (e) {
  const msg = e instanceof ConfigError ? e.message : ((e as Error).stack ?? String(e));
  console.error(`The API server could not start: ${msg}`);
  process.exit(1);
}
