import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxVirusScanner, ScannerUnavailableError } from './scanner';

/** A scanner answering by the file's name: a verdict, a failure, or something that is not a verdict. */
let server: Server;
let scanner: SandboxVirusScanner;
beforeAll(async () => {
  server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name');
    req.resume();
    req.on('end', () => {
      if (name === 'clean.pdf') res.writeHead(200).end('{"clean":true}');
      else if (name === 'eicar.pdf') res.writeHead(200).end('{"clean":false,"signature":"EICAR-Test-File"}');
      else if (name === 'down.pdf') res.writeHead(503).end('the scanner is down');
      else if (name === 'odd.pdf') res.writeHead(200).end('{"status":"queued"}');
      else res.writeHead(200).end('<html>a proxy page</html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scanner = new SandboxVirusScanner(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const bytes = () => Readable.from([Buffer.from('%PDF-1.4 hello')]);

describe('the virus scanner: a verdict, or a 503 the user can retry', () => {
  it('says clean, or names what it found', async () => {
    await expect(scanner.scan(bytes(), 'clean.pdf')).resolves.toEqual({ clean: true });
    await expect(scanner.scan(bytes(), 'eicar.pdf')).resolves.toEqual({ clean: false, signature: 'EICAR-Test-File' });
  });

  it('is unavailable (503, its cause kept for the log) when it fails, answers no verdict, or cannot be reached', async () => {
    for (const name of ['down.pdf', 'odd.pdf', 'html.pdf']) {
      const failed = await scanner.scan(bytes(), name).catch((e: unknown) => e);
      expect(failed, name).toBeInstanceOf(ScannerUnavailableError);
      expect((failed as ScannerUnavailableError).status).toBe(503);
      expect(String((failed as ScannerUnavailableError).text)).toBe('The virus scanner is not available right now. Please try again later.');
    }
    const down = (await scanner.scan(bytes(), 'down.pdf').catch((e: unknown) => e)) as Error;
    expect(String(down.cause)).toContain('503 the scanner is down');
    const nowhere = new SandboxVirusScanner('http://127.0.0.1:9');
    await expect(nowhere.scan(bytes(), 'clean.pdf')).rejects.toBeInstanceOf(ScannerUnavailableError);
  });
});
