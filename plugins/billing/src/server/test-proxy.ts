import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request: pass it on; pass it on and then drop the answer (the provider did the work,
 * our side sees the connection close: the outcome is unknown to us); or answer itself with a status and a JSON body.
 */
export type ProxyMode = 'pass' | 'dropAnswer' | { status: number; body: unknown };

export interface ProviderProxy {
  /** The proxy's address: give it to the server as its sandboxUrl. */
  url: string;
  /** Decides each request by method and path (no query); every request passes by default. */
  rule: (method: string, path: string) => ProxyMode;
  /** The requests seen, as `<mode> <METHOD> <path>`. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy for tests between our server and the sandbox providers, failing the requests its `rule` picks (the
 * providers review's failure-injecting proxy, reduced to what billing's tests use).
 */
export async function startProviderProxy(targetUrl: string): Promise<ProviderProxy> {
  const target = new URL(targetUrl);
  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const r = httpRequest(
        { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  const proxy: ProviderProxy = { url: '', rule: () => 'pass', seen: [], close: async () => {} };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0] ?? '';
    const mode = proxy.rule(req.method ?? 'GET', path);
    proxy.seen.push(`${typeof mode === 'string' ? mode : mode.status} ${req.method} ${path}`);
    if (typeof mode === 'object') {
      res.writeHead(mode.status, { 'content-type': 'application/json' }).end(JSON.stringify(mode.body));
      return;
    }
    const answer = await forward(req, Buffer.concat(parts));
    if (mode === 'dropAnswer') {
      req.socket.destroy();
      return;
    }
    const { 'content-length': _length, 'transfer-encoding': _encoding, connection: _connection, ...headers } = answer.headers;
    res.writeHead(answer.status, headers).end(answer.body);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}

/** A rule that applies `mode` to the first `times` requests matching the method and path, and passes every other. */
export function failing(method: string, path: string | RegExp, mode: ProxyMode, times = 1): ProviderProxy['rule'] {
  let left = times;
  return (m, p) => {
    if (left > 0 && m === method && (typeof path === 'string' ? p === path : path.test(p))) {
      left--;
      return mode;
    }
    return 'pass';
  };
}
