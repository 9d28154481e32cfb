import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareLoad, FLOOR_PAGE, floorLoad, measureFloor, startFloorPage } from './browser';
import { PipeCdp } from './cdp-pipe';
import { CHROMIUM, CHROMIUM_ARGS } from './lib';

// A sign-in page of three requests after the document: a style sheet, a script, and the script's data call. The
// button is enabled by that script once its call is answered (like the app taking over the prerendered page), or never.
const PAGES: Record<string, { type: string; body: string }> = {
  '/login': {
    type: 'text/html',
    body: '<!doctype html><html><head><title>bench page</title><link rel="stylesheet" href="/page.css"><script src="/page.js" defer></script></head><body><h1>Sign in to the bench page</h1><button disabled>Sign in</button></body></html>',
  },
  '/never/login': {
    type: 'text/html',
    body: '<!doctype html><html><head><title>never ready</title></head><body><p>This page never lets anyone sign in</p><button disabled>Sign in</button></body></html>',
  },
  '/page.css': { type: 'text/css', body: 'h1 { font-size: 40px; }' },
  '/page.js': {
    type: 'text/javascript',
    body: "fetch('/data.json').then((r) => r.json()).then(() => { document.querySelector('button').disabled = false; });",
  },
  '/data.json': { type: 'application/json', body: '{"ok":true}' },
};

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    // The never-ready site is told apart by its host, as the brands are.
    const path = req.headers.host?.startsWith('never.') && req.url === '/login' ? '/never/login' : (req.url ?? '');
    const page = PAGES[path];
    res.writeHead(page ? 200 : 404, { 'content-type': page?.type ?? 'text/plain' }).end(page?.body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

// scripts/test installs Chromium before the unit tests; a machine without it has no page bench either.
describe.runIf(existsSync(CHROMIUM))('a cold load in the bare browser', () => {
  it('waits for the page to be ready and its network idle, then reads its paints, requests and path', async () => {
    const cdp = PipeCdp.launch(CHROMIUM, CHROMIUM_ARGS);
    try {
      const f = await bareLoad(cdp, base, { id: 'card', marker: 'card' }, 'login', 1);
      expect(f.url).toBe('/login');
      // The document, the style sheet, the script, its data call, and the /favicon.ico Chromium asks for after the load
      // (it lists that one among the page's resource timing entries too).
      expect(f.requests).toBe(5);
      expect(f.fcp).toBeGreaterThan(0);
      expect(f.lcp).toBeGreaterThanOrEqual(f.fcp);
      expect(f.cls).toBe(0);
    } finally {
      await cdp.close();
    }
  }, 30_000);

  it('gives up on a page that never gets ready, saying where it was and what it showed', async () => {
    const cdp = PipeCdp.launch(CHROMIUM, CHROMIUM_ARGS);
    try {
      await expect(bareLoad(cdp, base, { id: 'card', marker: 'never' }, 'login', 1, 2000)).rejects.toThrow(
        /^login card cpu\/1: not ready after 2000 ms \(at \/login: .*never lets anyone sign in/,
      );
    } finally {
      await cdp.close();
    }
  }, 30_000);
});

describe.runIf(existsSync(CHROMIUM))("the browser's floor beside the page figures", () => {
  it('serves the static floor page on loopback, and nothing else', async () => {
    const floor = await startFloorPage();
    try {
      const page = await fetch(floor.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(FLOOR_PAGE);
      expect(FLOOR_PAGE).not.toMatch(/<script|<link|<style/);
      expect((await fetch(new URL('/favicon.ico', floor.url))).status).toBe(404);
    } finally {
      await floor.stop();
    }
  });

  it("loads the static page cold at the asked CPU rate and reads its paints, as the sites' loads are read", async () => {
    const floor = await startFloorPage();
    const cdp = PipeCdp.launch(CHROMIUM, CHROMIUM_ARGS);
    try {
      const f = await floorLoad(cdp, floor.url, 4);
      expect(f.url).toBe('/');
      expect(f.fcp).toBeGreaterThan(0);
      expect(f.lcp).toBeGreaterThanOrEqual(f.fcp);
      expect(f.cls).toBe(0);
      const m = await measureFloor(cdp, floor.url, 1, 3);
      expect(m.samples).toHaveLength(3);
      expect(m.lcp).toBe(Math.round([...m.samples.map((s) => s.lcp)].sort((a, b) => a - b)[1] ?? Number.NaN));
    } finally {
      await cdp.close();
      await floor.stop();
    }
  }, 60_000);
});
