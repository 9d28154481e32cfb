import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import {
  buildApp,
  ConfigError,
  createBankAggregator,
  createFederalPayer,
  createFileStore,
  createJobQueue,
  createMailTransport,
  createPaymentGateway,
  createSmsTransport,
  createVirusScanner,
  type Database,
  defineSessionPrune,
  defineThrottlePrune,
  type JobQueue,
  type KernelServerPlugin,
  kernelPlugin,
  loadConfig,
  type MigrationSet,
  migrate,
  openDatabase,
  pdfService,
  QueuedMailTransport,
  type ServerConfig,
  sheetService,
} from '@portal/server/kernel';
import { loadServerPlugins, REPO_ROOT } from './plugins';

export interface StartedServer {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  routes: Awaited<ReturnType<typeof buildApp>>['routes'];
  /** Writes the batched read and refusal audit rows now (tests read the audit log right after a call). */
  flushAudit(): Promise<void>;
  database: Database;
  config: ServerConfig;
  /** The background job queue; this process works it unless JOBS=off. */
  jobs: JobQueue;
  close(): Promise<void>;
}

/** JOBS=off lets a process (an extra API instance, a script) queue jobs without working them. */
export function jobsWorkedHere(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.JOBS ?? 'on';
  if (v !== 'on' && v !== 'off') throw new ConfigError(`JOBS must be "on" or "off", got "${v}"`);
  return v === 'on';
}

/** Every migration a server applies, the kernel's first, then each plugin's. */
export function migrationSets(plugins: readonly KernelServerPlugin[]): MigrationSet[] {
  return [{ owner: 'kernel', migrations: kernelPlugin.migrations ?? [] }, ...plugins.map((p) => ({ owner: p.id, migrations: p.migrations ?? [] }))];
}

/** Opens the database, applies migrations (kernel first, then plugins) and assembles the app. Does not listen. */
export async function createServer(
  overrides: Partial<ServerConfig> = {},
  opts: {
    logger?: boolean | object;
    workJobs?: boolean;
    /** The in-memory database starts from this image (Database.image) of one already migrated: the integration tests. */
    databaseImage?: Blob | null;
  } = {},
): Promise<StartedServer> {
  const config = { ...loadConfig(process.env, REPO_ROOT), ...overrides };
  const workJobs = opts.workJobs ?? jobsWorkedHere();
  const brands = loadBrands(installedPluginIds(join(REPO_ROOT, 'plugins')));
  const plugins = await loadServerPlugins(brands);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    readUrl: config.databaseReadUrl,
    maxReplicaLagMs: config.replicaMaxLagMs,
    image: opts.databaseImage,
  });
  try {
    await migrate(database.sql, migrationSets(plugins));
  } catch (e) {
    await database.close();
    throw e;
  }
  const demoFile = config.dataDir ? join(config.dataDir, 'demo-users.json') : null;
  const jobs = createJobQueue(database, { work: workJobs });
  const mail = await QueuedMailTransport.create(jobs, createMailTransport(config));
  await defineThrottlePrune(jobs, database.sql);
  await defineSessionPrune(jobs, database.sql);
  const { app, routes, flushAudit } = await buildApp({
    config,
    database,
    brands,
    kernelPlugins: [kernelPlugin],
    featurePlugins: plugins,
    services: {
      mail,
      sms: createSmsTransport(config),
      jobs,
      files: await createFileStore(config.fileStore),
      pdf: pdfService,
      sheets: sheetService,
      payments: createPaymentGateway(config.sandboxUrl),
      payer: createFederalPayer(config.sandboxUrl),
      banks: createBankAggregator(config.sandboxUrl),
      scanner: createVirusScanner(config),
    },
    logger: opts.logger,
    demoUsers: async () => (demoFile && existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : []),
  });
  database.onConnectionError((err) => app.log.warn({ err }, 'database connection lost: the pool opens a new one'));
  // After buildApp: plugins have defined their jobs in init, and failures log through the app's logger.
  try {
    await jobs.start({ logger: app.log });
  } catch (e) {
    await app.close();
    await jobs.stop();
    await database.close();
    throw e;
  }
  return {
    app,
    routes,
    flushAudit,
    database,
    config,
    jobs,
    close: async () => {
      await app.close();
      await jobs.stop();
      await database.close();
    },
  };
}
