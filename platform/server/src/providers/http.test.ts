import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNumbers, type ProviderErrors, providerCall } from './http';

class Refused extends Error {}
class Unavailable extends Error {}
const ERRORS: ProviderErrors = {
  name: 'test provider',
  refused: (status, message) => new Refused(`${status} ${message}`),
  unavailable: (message) => new Unavailable(message),
};

/** A provider answering by path: what a real one does when it works, refuses, breaks off or answers garbage. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/ok':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"transId":7}');
      case '/refused':
        return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"The card was declined."}');
      case '/failing':
        return res.writeHead(502).end('bad gateway');
      case '/not-json':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"transId": 12, "respo');
      case '/empty-object':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      case '/breaks-off':
        // Headers and half a body, then the connection drops: the provider may have acted, its answer is lost.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"transId":');
        return setTimeout(() => res.socket?.destroy(), 20);
      default:
        return res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = (path: string, valid?: (d: unknown) => boolean) => providerCall<unknown>(ERRORS, `${base}${path}`, 'Basic x', 'POST', {}, {}, valid);

describe('providerCall: what a provider answered, or why it could not be read', () => {
  it('gives the JSON answer that has the shape the caller relies on', async () => {
    await expect(call('/ok', (d) => hasNumbers(d, 'transId'))).resolves.toEqual({ transId: 7 });
  });

  it("is a refusal with the provider's words on a 4xx", async () => {
    await expect(call('/refused')).rejects.toThrow(new Refused('400 The card was declined.'));
  });

  it('is unavailable on a 5xx and when nothing listens', async () => {
    await expect(call('/failing')).rejects.toBeInstanceOf(Unavailable);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(providerCall(ERRORS, `http://127.0.0.1:${port}/x`, 'Basic x', 'GET')).rejects.toBeInstanceOf(Unavailable);
  });

  it('is unavailable, never a crash, when a 2xx body breaks off, is not JSON or lacks the fields the caller needs', async () => {
    await expect(call('/breaks-off')).rejects.toBeInstanceOf(Unavailable);
    await expect(call('/not-json')).rejects.toThrow(/unreadable answer/);
    await expect(call('/empty-object', (d) => hasNumbers(d, 'transId'))).rejects.toThrow(/unreadable answer/);
    // Without a shape to check, any JSON is taken as it is.
    await expect(call('/empty-object')).resolves.toEqual({});
  });
});
