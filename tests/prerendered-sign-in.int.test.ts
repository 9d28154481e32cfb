import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StartedServer } from '@portal/app-server/server';
import { startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The sites server sends the sign-in page prerendered in the language the browser will start in (apps/web/build.ts). */

const webDistDir = mkdtempSync(join(tmpdir(), 'portal-prerendered-'));
const page = (lang: string, body: string) => `<!doctype html><html lang="${lang}"><head><title>t</title></head><body>${body}</body></html>`;
let server: StartedServer;

beforeAll(async () => {
  mkdirSync(join(webDistDir, 'finance', 'prerendered'), { recursive: true });
  writeFileSync(join(webDistDir, 'finance', 'index.html'), page('en', '<div id="root"></div>'));
  writeFileSync(join(webDistDir, 'finance', 'prerendered', 'sign-in.en.html'), page('en', '<div id="root" data-prerendered="en"><h1>Sign in</h1></div>'));
  writeFileSync(
    join(webDistDir, 'finance', 'prerendered', 'sign-in.es.html'),
    page('es', '<div id="root" data-prerendered="es"><h1>Iniciar sesión</h1></div>'),
  );
  // A brand built before prerendering existed: its index for every path.
  mkdirSync(join(webDistDir, 'card'), { recursive: true });
  writeFileSync(join(webDistDir, 'card', 'index.html'), page('en', '<div id="root"></div>'));
  server = await startTestServer({ webDistDir });
}, 180_000);
afterAll(async () => {
  await server?.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, host = 'finance.localhost') =>
  server.app.inject({ method: 'GET', url, headers: { host, ...headers } });

describe('the prerendered sign-in page', () => {
  it('is sent for /login and /register in English by default, and varies by cookie and language (and by encoding)', async () => {
    for (const url of ['/login', '/register', '/login?next=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('data-prerendered="en"><h1>Sign in</h1>');
      expect(res.headers.vary, url).toBe('cookie, accept-language, accept-encoding');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it("is sent in Spanish when the browser prefers Spanish, as the app's own language detection decides", async () => {
    expect((await get('/login', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' })).body).toContain('Iniciar sesión');
    expect((await get('/login', { 'accept-language': 'en;q=0.5, es;q=0.9' })).body).toContain('Iniciar sesión');
    // Only the first preference counts, as in the browser: French first means English.
    expect((await get('/login', { 'accept-language': 'fr-FR,es;q=0.9' })).body).toContain('Sign in');
  });

  it('follows the language the user chose in this browser (the cq.lang cookie) over the browser preference', async () => {
    expect((await get('/login', { 'accept-language': 'es', cookie: 'other=1; cq.lang=en' })).body).toContain('Sign in');
    expect((await get('/login', { cookie: 'cq.lang=es' })).body).toContain('Iniciar sesión');
    // An unknown choice is ignored, as the app ignores it.
    expect((await get('/login', { 'accept-language': 'es', cookie: 'cq.lang=fr' })).body).toContain('Iniciar sesión');
  });

  it('is not sent for other pages, and a brand without prerendered pages gets its index', async () => {
    const other = await get('/dashboard', { cookie: 'cq.lang=es' });
    expect(other.body).toContain('<div id="root"></div>');
    // Not by cookie or language: only by encoding, as every document of the site.
    expect(other.headers.vary).toBe('accept-encoding');
    const card = await get('/login', {}, 'card.localhost');
    expect(card.statusCode).toBe(200);
    expect(card.body).toContain('<div id="root"></div>');
  });
});
