import { existsSync, readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
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
  type MigrationLog,
  type MigrationSet,
  migrate,
  openDatabase,
  pdfService,
  QueuedMailTransport,
  redactingLogger,
  type ServerConfig,
  sheetService,
  validateDatabaseUrl,
} from '@portal/server/kernel';
import Fastify from 'fastify';
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

/**
 * MIGRATION_DATABASE_URL: where the start's migrations run when DATABASE_URL is not a direct session connection to
 * PostgreSQL (a PgBouncer in transaction mode): a migration that builds an index outside a transaction holds a
 * session-level advisory lock across its statements, which such a pooler may leave held on one of its server
 * connections (docs/SCALING.md). null: the migrations run over DATABASE_URL.
 */
export function migrationDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.MIGRATION_DATABASE_URL;
  if (!raw) return null;
  if (!env.DATABASE_URL) throw new ConfigError('MIGRATION_DATABASE_URL needs DATABASE_URL: the embedded database is migrated through itself');
  return validateDatabaseUrl(raw, 'MIGRATION_DATABASE_URL');
}

/** What a start says when its port is taken. */
export const portInUse = (port: number) => new ConfigError(`Port ${port} is already in use (another API running? set PORT)`);

/**
 * Refuses a port another process listens on (portInUse), before anything else starts: a second API on a taken port
 * would otherwise open the database, migrate and start its job queue before listen found out.
 */
export function checkPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? portInUse(port) : e));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
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
  // A caller naming its own database (the tests) migrates it through itself, whatever the environment says.
  const migrationUrl = 'databaseUrl' in overrides ? null : migrationDatabaseUrl();
  // The start's lines before the app and its logger exist (the migrations'), through a logger configured as the app's.
  const startLog: MigrationLog =
    opts.logger === false
      ? () => {}
      : (
          (log) => (msg, level) =>
            log[level ?? 'info'](msg)
        )(Fastify({ logger: redactingLogger(opts.logger ?? { level: config.logLevel }, config.logLevel) }).log);
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
    const migrator = migrationUrl
      ? await openDatabase({ databaseUrl: migrationUrl, dataDir: null, poolSize: 2 }).catch((e: unknown) => {
          throw e instanceof ConfigError
            ? new ConfigError(e.message.replace('Cannot reach the database', 'Cannot reach the migration database (MIGRATION_DATABASE_URL)'))
            : e;
        })
      : database;
    try {
      await migrate(migrator.sql, migrationSets(plugins), startLog);
    } finally {
      if (migrator !== database) await migrator.close();
    }
  } catch (e) {
    await database.close();
    throw e;
  }
  const demoFile = config.dataDir ? join(config.dataDir, 'demo-users.json') : null;
  const jobs = createJobQueue(database, { work: workJobs, secret: config.tokenSecret });
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
