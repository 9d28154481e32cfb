/** A test server whose providers (mail inbox, SMS, card gateway, federal payer ...) are a real sandbox on a random port, over HTTP. */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * What a pass-through does with one request before it forwards it: answer it itself (a provider that is down), hold
 * it (a provider that is slow), or let it through (answer nothing). The request's body is read first.
 */
export type Intercept = (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<boolean | undefined> | boolean | undefined;

/**
 * An HTTP pass-through in front of the sandbox, for tests that need a provider to fail or to wait: the server under test
 * is pointed at `url`, and each request goes through `intercept` (true: it answered) before it is forwarded to
 * `target()` (the sandbox's address, known once the sandbox has started).
 */
export async function sandboxPassThrough(target: () => string | undefined, intercept: Intercept): Promise<{ url: string; close(): Promise<void> }> {
  const proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (await intercept(req, body, res)) return;
    const to = target();
    if (!to) {
      res.writeHead(502).end('the sandbox is not started yet');
      return;
    }
    const forwarded = request(new URL(req.url ?? '/', to), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}
