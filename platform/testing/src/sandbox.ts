/** A test server whose providers (mail inbox, SMS, card gateway, federal payer ...) are a real sandbox on a random port, over HTTP. */
import type { StartedServer } from '@portal/app-server/server';
import { createSandbox } from '@portal/sandbox';
import type { ServerConfig } from '@portal/server/kernel';
import type { FastifyInstance } from 'fastify';
import { startTestServer, type TestServerOptions } from './server';

export interface SandboxTestEnv {
  server: StartedServer;
  sandbox: FastifyInstance;
  sandboxUrl: string;
  close(): Promise<void>;
}

export async function startSandboxTestEnv(overrides: Partial<ServerConfig> = {}, opts: TestServerOptions = {}): Promise<SandboxTestEnv> {
  const sandbox = await createSandbox({ dataDir: null });
  const sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const server = await startTestServer({ sandboxUrl, smtpUrl: null, ...overrides }, opts);
  return {
    server,
    sandbox,
    sandboxUrl,
    close: async () => {
      await server.close();
      await sandbox.close();
    },
  };
}
