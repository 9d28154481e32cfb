/** Test harness for the ledger: the sandbox (federal payer) on a random port and a test server that reports to it over HTTP. */
import type { StartedServer } from '@portal/app-server/server';
import { createSandbox } from '@portal/sandbox';
import { startTestServer } from '@portal/testing/server';
import type { FastifyInstance } from 'fastify';

export interface LedgerTestEnv {
  server: StartedServer;
  sandbox: FastifyInstance;
  sandboxUrl: string;
  close(): Promise<void>;
}

export async function startLedgerTestEnv(): Promise<LedgerTestEnv> {
  const sandbox = await createSandbox({ dataDir: null });
  const sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const server = await startTestServer({ sandboxUrl, smtpUrl: null });
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
