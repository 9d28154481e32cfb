import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { buildApp, createMailTransport, type Database, kernelPlugin, loadConfig, migrate, openDatabase, type ServerConfig } from '@portal/server';
import { loadServerPlugins, REPO_ROOT } from './plugins';

export interface StartedServer {
  app: Awaited<ReturnType<typeof buildApp>>['app'];
  routes: Awaited<ReturnType<typeof buildApp>>['routes'];
  database: Database;
  config: ServerConfig;
  close(): Promise<void>;
}

/** Opens the database, applies migrations (kernel first, then plugins) and assembles the app. Does not listen. */
export async function createServer(overrides: Partial<ServerConfig> = {}, opts: { logger?: boolean | object } = {}): Promise<StartedServer> {
  const config = { ...loadConfig(process.env, REPO_ROOT), ...overrides };
  const brands = loadBrands(installedPluginIds(join(REPO_ROOT, 'plugins')));
  const plugins = await loadServerPlugins(brands);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database.sql, [
      { owner: 'kernel', migrations: kernelPlugin.migrations ?? [] },
      ...plugins.map((p) => ({ owner: p.id, migrations: p.migrations ?? [] })),
    ]);
  } catch (e) {
    await database.close();
    throw e;
  }
  const demoFile = config.dataDir ? join(config.dataDir, 'demo-users.json') : null;
  const { app, routes } = await buildApp({
    config,
    database,
    brands,
    kernelPlugins: [kernelPlugin],
    featurePlugins: plugins,
    services: { mail: createMailTransport(config) },
    logger: opts.logger,
    demoUsers: async () => (demoFile && existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : []),
  });
  return {
    app,
    routes,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
