import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The brand sites' files: hashed assets held in memory once read (AssetCache), everything else from disk. */

const dataDir = mkdtempSync(join(tmpdir(), 'portal-assets-'));
const webDistDir = join(dataDir, 'web');
const site = join(webDistDir, 'finance');
const SCRIPT = 'export const answer = 42;\n'.repeat(20);
const INDEX = '<!doctype html><html lang="en"><head><title>t</title></head><body><div id="root"></div></body></html>';
/** A help video's bytes (any bytes: the server does not read them). */
const VIDEO = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  mkdirSync(join(site, 'assets'), { recursive: true });
  writeFileSync(join(site, 'index.html'), INDEX);
  writeFileSync(join(site, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(join(site, 'index.html.gz'), gzipSync(INDEX));
  writeFileSync(join(site, 'assets', 'app-1a2b3c.js'), SCRIPT);
  writeFileSync(join(site, 'assets', 'app-1a2b3c.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(site, 'robots.txt'), 'User-agent: *\n');
  // A script with both copies, as the build writes them, and a file at the root with a brotli copy.
  writeFileSync(join(site, 'assets', 'both-7a8b9c.js'), SCRIPT);
  writeFileSync(join(site, 'assets', 'both-7a8b9c.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(site, 'assets', 'both-7a8b9c.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(site, 'boot.js'), SCRIPT);
  writeFileSync(join(site, 'boot.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(site, 'assets', 'help-4d5e6f.webm'), VIDEO);
  server = await startTestServer({ webDistDir });
}, 180_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url, headers: { host: 'finance.localhost', ...headers } });

describe('brand site files', () => {
  it('sends a hashed asset precompressed when the browser takes gzip, plain otherwise, cached for a year', async () => {
    const zipped = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(zipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.rawPayload).toEqual(gzipSync(SCRIPT));
    expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);

    const plain = await get('/assets/app-1a2b3c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends the brotli copy to a browser that takes brotli, the gzip one to one that takes only gzip (or refuses br)', async () => {
    for (const accepted of ['gzip, deflate, br, zstd', 'br', 'BR;q=0.5, gzip']) {
      const answer = await get('/assets/both-7a8b9c.js', { 'accept-encoding': accepted });
      expect(answer.headers['content-encoding'], accepted).toBe('br');
      expect(answer.headers.vary).toBe('accept-encoding');
      expect(answer.rawPayload).toEqual(brotliCompressSync(SCRIPT));
    }
    for (const accepted of ['gzip', 'gzip, br;q=0', 'deflate, gzip;q=1.0']) {
      const answer = await get('/assets/both-7a8b9c.js', { 'accept-encoding': accepted });
      expect(answer.headers['content-encoding'], accepted).toBe('gzip');
      expect(answer.rawPayload).toEqual(gzipSync(SCRIPT));
    }
    for (const accepted of ['', 'identity', 'gzip;q=0, br;q=0', 'brotli']) {
      const answer = await get('/assets/both-7a8b9c.js', { 'accept-encoding': accepted });
      expect(answer.headers['content-encoding'], accepted).toBeUndefined();
      expect(answer.body).toBe(SCRIPT);
    }
    // A part is the file's own bytes whatever is taken.
    const part = await get('/assets/both-7a8b9c.js', { range: 'bytes=0-5', 'accept-encoding': 'br, gzip' });
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body).toBe(SCRIPT.slice(0, 6));
    // A file outside assets/ too (the prerendered page's boot script), from disk.
    const boot = await get('/boot.js', { 'accept-encoding': 'gzip, br' });
    expect(boot.headers['content-encoding']).toBe('br');
    expect(boot.headers['cache-control']).toBe('no-cache');
    expect(boot.rawPayload).toEqual(brotliCompressSync(SCRIPT));
    expect((await get('/boot.js', { 'accept-encoding': 'gzip' })).body).toBe(SCRIPT);
  });

  it("sends the app's document from its precompressed copies as the browser takes them, always varying on Accept-Encoding", async () => {
    for (const path of ['/', '/claims/885']) {
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(br.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers.vary, path).toBe('accept-encoding');
      expect(br.headers['cache-control'], path).toBe('no-cache');
      expect(br.rawPayload, path).toEqual(brotliCompressSync(INDEX));
      const gz = await get(path, { 'accept-encoding': 'gzip, br;q=0' });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gz.rawPayload, path).toEqual(gzipSync(INDEX));
      const plain = await get(path, { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.headers.vary, path).toBe('accept-encoding');
      expect(plain.body, path).toBe(INDEX);
    }
    // The sign-in page (here the index in its place: this site has no prerendered copy) varies on the language too.
    const signIn = await get('/login', { 'accept-encoding': 'br' });
    expect(signIn.headers['content-encoding']).toBe('br');
    expect(signIn.headers.vary).toBe('cookie, accept-language, accept-encoding');
  });

  it('answers a Range request with the part asked for (206), so a video player can seek; an unsatisfiable one 416', async () => {
    const whole = await get('/assets/help-4d5e6f.webm');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await get('/assets/help-4d5e6f.webm', { range: 'bytes=1000-1999', 'accept-encoding': 'identity;q=1, *;q=0' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 1000-1999/5000');
    expect(part.headers['content-type']).toBe('video/webm');
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.rawPayload).toEqual(VIDEO.subarray(1000, 2000));
    const tail = await get('/assets/help-4d5e6f.webm', { range: 'bytes=-100' });
    expect(tail.headers['content-range']).toBe('bytes 4900-4999/5000');
    expect(tail.rawPayload).toEqual(VIDEO.subarray(4900));
    const open = await get('/assets/help-4d5e6f.webm', { range: 'bytes=4990-' });
    expect(open.rawPayload).toEqual(VIDEO.subarray(4990));
    const beyond = await get('/assets/help-4d5e6f.webm', { range: 'bytes=6000-7000' });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */5000');
    // A header that does not parse is ignored: the whole file.
    const junk = await get('/assets/help-4d5e6f.webm', { range: 'lines=1-2' });
    expect(junk.statusCode).toBe(200);
    expect(junk.rawPayload).toEqual(VIDEO);
    // A script asked for in part (with gzip accepted) gets its own bytes, not the .gz's.
    const script = await get('/assets/app-1a2b3c.js', { range: 'bytes=0-5', 'accept-encoding': 'gzip' });
    expect(script.statusCode).toBe(206);
    expect(script.headers['content-encoding']).toBeUndefined();
    expect(script.body).toBe(SCRIPT.slice(0, 6));
  });

  it('answers a hashed asset from memory once read: a new build may remove the old files while pages still ask for them', async () => {
    await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip' });
    await get('/assets/app-1a2b3c.js');
    unlinkSync(join(site, 'assets', 'app-1a2b3c.js'));
    unlinkSync(join(site, 'assets', 'app-1a2b3c.js.gz'));
    expect((await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip' })).rawPayload).toEqual(gzipSync(SCRIPT));
    expect((await get('/assets/app-1a2b3c.js')).body).toBe(SCRIPT);
  });

  it('answers an unknown asset 404, and finds one written after the first miss', async () => {
    const missing = await get('/assets/later-9f9f9f.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('Not found');
    writeFileSync(join(site, 'assets', 'later-9f9f9f.js'), 'late');
    expect((await get('/assets/later-9f9f9f.js')).body).toBe('late');
  });

  it('reads files outside assets/ from disk each time, revalidated, even when the path goes through assets/', async () => {
    const first = await get('/robots.txt');
    expect(first.body).toBe('User-agent: *\n');
    expect(first.headers['cache-control']).toBe('no-cache');
    writeFileSync(join(site, 'robots.txt'), 'User-agent: none\n');
    expect((await get('/robots.txt')).body).toBe('User-agent: none\n');

    const around = await get('/assets/../robots.txt');
    expect(around.headers['cache-control']).not.toContain('immutable');
  });

  it('answers 404 for a file at the root the site does not have (/favicon.ico), never the app in its place', async () => {
    for (const path of ['/favicon.ico', '/apple-touch-icon.png', '/sitemap.xml', '/assets/../favicon.ico']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type'], path).not.toContain('text/html');
    }
    // A file the site has is served; a page's address is still the app, even when a deeper part of it holds a dot
    // (a handed-over token: /activated/<a.b.c>).
    expect((await get('/robots.txt')).statusCode).toBe(200);
    for (const path of ['/claims', '/claims/885', '/activated/aaa.bbb.ccc', '/t/x.y', '/login?from=a.b']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toContain('text/html');
    }
  });

  it('never serves a file outside the brand site', async () => {
    writeFileSync(join(webDistDir, 'secret.txt'), 'secret');
    const res = await get('/assets/../../secret.txt');
    expect(res.body).not.toContain('secret');
  });
});
