/**
 * Browser measurements in headless Chromium: what the sign-in path downloads, and the page-speed figures of cold
 * loads (fresh context, so an empty cache, each time).
 *
 * Scripts given to the page are strings: tsx compiles this file with keepNames, whose helper does not exist in the page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { PipeCdp } from './cdp-pipe';
import { CHROMIUM_ARGS, DEMO_PASSWORD, DEMO_USER, median, ROOT, signIn, sleep } from './lib';

/**
 * Installed before any page script: paint, layout-shift and long-task observers, and the moment the page is ready: on
 * the sign-in page, "Sign in" exists and is enabled (the prerendered page shows it disabled until the app has taken it
 * over); on a signed-in page, the toolbar names the user. Each moment is also told to the bench by a console message
 * (`bench:sign-in`, `bench:named`; see `pageReady`).
 */
export const OBSERVERS = `(() => {
  if (window.__bench) return;
  const m = (window.__bench = { fcp: null, lcp: null, cls: 0, tbt: 0, longTasks: 0, signInAt: null, namedAt: null });
  const observe = (type, fn) => { try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({ type, buffered: true }); } catch (e) {} };
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') m.fcp = e.startTime; });
  observe('largest-contentful-paint', (e) => { m.lcp = e.renderTime || e.loadTime || e.startTime; });
  // CLS as Chromium reports it: the largest session window (gaps under 1 s, at most 5 s long) of shifts without recent input.
  let win = 0, first = 0, last = 0;
  observe('layout-shift', (e) => {
    if (e.hadRecentInput) return;
    if (win && e.startTime - last < 1000 && e.startTime - first < 5000) win += e.value; else { win = e.value; first = e.startTime; }
    last = e.startTime;
    m.cls = Math.max(m.cls, win);
  });
  observe('longtask', (e) => { m.longTasks++; m.tbt += Math.max(0, e.duration - 50); });
  const signInWorks = () => {
    for (const b of document.querySelectorAll('button')) if (b.textContent.trim() === 'Sign in' && !b.disabled) return true;
    return false;
  };
  const named = () => {
    const el = document.querySelector('[data-testid="display-name"]');
    return !!el && el.textContent.trim() !== '';
  };
  // Each moment is noted once; the watch ends when the toolbar names the user (after a sign-in, too).
  const mo = new MutationObserver(() => {
    if (m.signInAt === null && signInWorks()) { m.signInAt = performance.now(); console.debug('bench:sign-in'); }
    if (named()) { m.namedAt = performance.now(); console.debug('bench:named'); mo.disconnect(); }
  });
  mo.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['disabled'] });
})();`;

export const READ_METRICS = 'JSON.stringify(window.__bench)';
const readMetrics = async (page: Page) => JSON.parse((await page.evaluate(READ_METRICS)) as string) as PageMetrics;
const READ_RESOURCES = `JSON.stringify(performance.getEntriesByType('resource').map((e) => ({
  url: e.name, initiator: e.initiatorType, start: e.startTime, end: e.responseEnd, encoded: e.encodedBodySize, decoded: e.decodedBodySize })))`;

export interface PageMetrics {
  fcp: number | null;
  lcp: number | null;
  cls: number;
  tbt: number;
  longTasks: number;
  signInAt: number | null;
  namedAt: number | null;
}
interface ResourceEntry {
  url: string;
  initiator: string;
  start: number;
  end: number;
  encoded: number;
  decoded: number;
}

/**
 * V8 records a function's source positions when it compiles it, not later by parsing the script again (V8's default,
 * `--enable-lazy-source-positions`, saves that memory until a stack trace needs the positions).
 *
 * Why the bench's browser is told so: Playwright enables the Runtime and Network domains on every page, and with a
 * DevTools client attached V8 takes a full stack trace for every Error created, thrown or not, and Blink takes one for
 * every request, as its initiator. In a member's browser nothing asks for one.
 * - On the landing page those traces cost a second parse of each script with a frame on the stack: the 400 KB entry
 *   chunk among them, since React DOM creates two of its internal Errors (`SuspenseException`,
 *   `SelectiveHydrationException`) at module level, with the entry's own top-level code on the stack.
 * - In a trace of a cold landing at CPU/4 that was 190 ms of `V8.CollectSourcePositions` inside the entry's
 *   evaluation, and none with this flag.
 * - `scripts/bench/devtools-tax.ts` compares Playwright without the flag, Playwright with it, and a browser with no
 *   DevTools domain enabled. The flag takes back part of the cost; the bare browser was faster still, which is why the
 *   page bench's cold loads run there (`bareLoad`; docs/performance-log.md, issue 23, twenty-fifth pass).
 * Recording positions up front costs a little more compile work than a member's browser does, so the figures err
 * slow.
 */
export const SOURCE_POSITIONS_AT_COMPILE = '--js-flags=--no-enable-lazy-source-positions';

/**
 * Chromium started at a lower CPU priority than the server side (nice 10, for its session's group as well): every
 * browser `launch` and `launchBare` start. Unpinned, the browser's threads used to take core 0 from the API while it had requests to answer:
 * over a cold landing at CPU/4 the API's main thread waited 100–600 ms for a CPU, and the landing's chunk came that
 * much later (issue 23, thirty-first pass). At the lower priority it waits about 15 ms, and the browser still has
 * both cores whenever the server side does not need one.
 */
export const LOW_PRIORITY_CHROMIUM = join(ROOT, 'scripts', 'bench', 'low-priority-chromium');

/**
 * Playwright's headless Chromium, for what needs Playwright: the landing page reloaded after a sign-in through the
 * form, the sign-in path's bytes, the grid and the traces. The page bench's cold loads run bare (`launchBare`).
 * `extraArgs` are Chromium's arguments beyond the common ones (by default, `SOURCE_POSITIONS_AT_COMPILE`). Started
 * through `LOW_PRIORITY_CHROMIUM` (Playwright starts its browsers in a session of their own).
 */
export async function launch(extraArgs: readonly string[] = [SOURCE_POSITIONS_AT_COMPILE]): Promise<Browser> {
  return chromium.launch({ executablePath: LOW_PRIORITY_CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

/**
 * The bare browser of the page bench's cold loads (`bareLoad`): headless Chromium over the DevTools pipe, started
 * through `LOW_PRIORITY_CHROMIUM` in a session of its own.
 */
export const launchBare = (): PipeCdp => PipeCdp.launch(LOW_PRIORITY_CHROMIUM, CHROMIUM_ARGS, { session: 'own' });

export const siteUrl = (base: string, host: string, path: string) => `http://${host}.localhost:${new URL(base).port}${path}`;

/** Resolves when no request of the page has been in flight for `quietMs` (the page's own "network idle"). */
function trackNetwork(page: Page) {
  let inFlight = 0;
  let lastChange = performance.now();
  let requests = 0;
  page.on('request', () => {
    inFlight++;
    requests++;
    lastChange = performance.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = performance.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    requests: () => requests,
    idle: async (quietMs = 500, maxMs = 20_000) => {
      const until = performance.now() + maxMs;
      while (performance.now() < until) {
        if (inFlight === 0 && performance.now() - lastChange >= quietMs) return;
        await sleep(50);
      }
    },
  };
}

/**
 * Resolves when the page's observers (OBSERVERS, installed by `coldPage` or `installObservers`) report the moment:
 * "Sign in" works, or the toolbar names the user. Call it before the navigation it waits for. It waits for a console
 * message, so nothing of the bench runs on the page's main thread while the page loads: a Playwright locator would
 * first evaluate Playwright's injected script in the new document, 45–70 ms of main-thread work at CPU/4, right when
 * the page's own modules and data calls are due (see docs/performance-log.md, sixth pass).
 */
export function pageReady(page: Page, moment: 'sign-in' | 'named', timeout = 30_000): Promise<unknown> {
  return page.waitForEvent('console', { predicate: (msg) => msg.text() === `bench:${moment}`, timeout });
}

/** Installs the page observers in a context (coldPage does this for the benches' own contexts). */
export const installObservers = (context: BrowserContext) => context.addInitScript({ content: OBSERVERS });

async function coldPage(browser: Browser, cpuRate: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await installObservers(context);
  const page = await context.newPage();
  if (cpuRate > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  }
  return { context, page };
}

const assetName = (url: string) => new URL(url).pathname.replace(/^\/assets\//, '');
const isJs = (url: string) => /\.m?js(\?|$)/.test(new URL(url).pathname);
const isCss = (url: string) => /\.css(\?|$)/.test(new URL(url).pathname);

export interface SignInPath {
  brand: string;
  /** Gzipped bytes (each file's .gz in the build), the budget's figure, whatever coding the browser was sent. */
  js: number;
  css: number;
  /** The JS bytes as sent (`encodedBodySize`): brotli where the browser takes it and the build has a .br copy. */
  jsSent: number;
  chunks: { name: string; bytes: number; sent: number; kind: 'js' | 'css' }[];
  /** JS fetched after the button worked but while the page settled (prefetches, later lazy chunks): not counted. */
  laterJs: number;
  wholeJs: number;
  wholeCss: number;
  /** From the build graph, for comparison: the entry and its modulepreloads as index.html lists them. */
  entryJsFromHtml: number;
}

/** Gzipped JS and CSS the browser received before the "Sign in" button worked, and the whole bundle from dist/. */
export async function measureSignInPath(browser: Browser, base: string, brand: { id: string; marker: string }): Promise<SignInPath> {
  const { context, page } = await coldPage(browser, 1);
  try {
    const net = trackNetwork(page);
    const ready = pageReady(page, 'sign-in');
    await page.goto(siteUrl(base, brand.marker, '/login'));
    await ready.catch(() => {
      throw new Error(`${brand.id}: the Sign in button did not work within 30 s`);
    });
    await net.idle();
    const m = await readMetrics(page);
    const entries = JSON.parse((await page.evaluate(READ_RESOURCES)) as string) as ResourceEntry[];
    const at = m.signInAt ?? Number.POSITIVE_INFINITY;
    const before = entries.filter((e) => e.end <= at);
    const chunks = before
      .filter((e) => isJs(e.url) || isCss(e.url))
      .map((e) => ({
        name: assetName(e.url),
        bytes: gzippedSize(brand.id, new URL(e.url).pathname) ?? e.encoded,
        sent: e.encoded,
        kind: isJs(e.url) ? ('js' as const) : ('css' as const),
      }))
      .sort((a, b) => b.bytes - a.bytes);
    const sum = (kind: 'js' | 'css', of: 'bytes' | 'sent' = 'bytes') => chunks.filter((c) => c.kind === kind).reduce((a, c) => a + c[of], 0);
    const whole = wholeBundle(brand.id);
    return {
      brand: brand.id,
      js: sum('js'),
      css: sum('css'),
      jsSent: sum('js', 'sent'),
      chunks,
      laterJs: entries.filter((e) => e.end > at && isJs(e.url)).reduce((a, e) => a + e.encoded, 0),
      wholeJs: whole.js,
      wholeCss: whole.css,
      entryJsFromHtml: whole.entryFromHtml,
    };
  } finally {
    await context.close();
  }
}

const siteDir = (brand: string) => join(process.env.WEB_DIST_DIR ? resolve(ROOT, process.env.WEB_DIST_DIR) : join(ROOT, 'apps', 'web', 'dist'), brand);

/** The size of the gzip copy the build wrote of a site's file (`/assets/index-….js`, `/boot.js`), or null without one. */
function gzippedSize(brand: string, path: string): number | null {
  const file = join(siteDir(brand), `${path.replace(/^\/+/, '')}.gz`);
  return existsSync(file) ? statSync(file).size : null;
}

/** Sizes of the precompressed files in <WEB_DIST_DIR or apps/web/dist>/<brand>/assets, and of what index.html loads up front. */
export function wholeBundle(brand: string) {
  const dir = siteDir(brand);
  const assets = join(dir, 'assets');
  let js = 0;
  let css = 0;
  const size = (name: string) => statSync(join(assets, name)).size;
  for (const name of readdirSync(assets)) {
    if (name.endsWith('.js.gz')) js += size(name);
    else if (name.endsWith('.css.gz')) css += size(name);
  }
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const upFront = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((x) => x[1] as string);
  return { js, css, entryFromHtml: upFront.reduce((a, n) => a + size(`${n}.gz`), 0) };
}

export interface LoadFigures {
  /** For `reload`: ms from the click on "Sign in" to the landing page's first render (the toolbar names the user). */
  signIn?: number;
  fcp: number;
  lcp: number;
  cls: number;
  tbt: number;
  requests: number;
  url: string;
}

/**
 * A page script that puts a signed-in session (the tokens `POST /token` gave) into sessionStorage before `/` runs its
 * own scripts, exactly where the sign-in form would have put them (only when `/` opens with no session stored).
 */
export function sessionInitScript(t: Awaited<ReturnType<typeof signIn>>): string {
  const items = {
    'cq.accessToken': t.access_token,
    'cq.refreshToken': t.refresh_token,
    'cq.expiry': String(Date.now() + t.expires_in * 1000),
    'cq.lifetime': String(t.expires_in),
    'cq.formToken': t.form_token,
  };
  return `if (location.pathname === '/' && !sessionStorage.getItem('cq.accessToken')) for (const [k, v] of Object.entries(${JSON.stringify(items)})) sessionStorage.setItem(k, v);`;
}

/**
 * The pages measured:
 * - `login`: a cold load of /login;
 * - `landing`: a cold load of / as a signed-in user, the tokens from POST /token put in sessionStorage first (a state
 *   no member's tab is in: a tab gets a session by signing in on the sign-in page, which loads the same code);
 * - `reload`: the landing page reloaded in the tab the member has just signed in with through the sign-in form, as a
 *   member's reload (or return to '/') loads it: with that tab's browser cache. The tab is throttled throughout; the
 *   figures are the reload's, plus the time from "Sign in" to the landing page's first render before it.
 */
export type PageKind = 'login' | 'landing' | 'reload';

/**
 * The toolbar names the signed-in user: the display name it shows is the member's own name, so the user is told by the
 * user name it carries (`data-user-name`).
 */
export const namedUser = (page: Page, userName: string) => page.locator(`[data-testid="display-name"][data-user-name="${userName}"]`);

const displayName = (page: Page, brandId: string) => namedUser(page, DEMO_USER[brandId] ?? '').waitFor({ state: 'visible', timeout: 30_000 });

/**
 * Signs the brand's demo user in through the sign-in form of a fresh page and waits until the landing page is
 * rendered and its requests are done. Returns the ms from the click on "Sign in" to that page's first render (the
 * toolbar names the user, as the page's observers note it: the page's context needs them, see `installObservers`).
 */
export async function signInThroughForm(page: Page, base: string, brand: { id: string; marker: string }): Promise<number> {
  const user = DEMO_USER[brand.id];
  if (!user) throw new Error(`no demo user for ${brand.id}`);
  await page.goto(siteUrl(base, brand.marker, '/login'));
  if (!(await page.evaluate('!!window.__bench'))) throw new Error('signInThroughForm needs the page observers (installObservers)');
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  const button = page.getByRole('button', { name: 'Sign in' });
  await button.and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
  const net = trackNetwork(page);
  const clickedAt = (await page.evaluate('performance.now()')) as number;
  await button.click();
  await displayName(page, brand.id);
  const { namedAt } = await readMetrics(page);
  await net.idle();
  return namedAt === null ? Number.NaN : namedAt - clickedAt;
}

/**
 * The two browsers the page bench measures in (`launchPageBrowsers`):
 * - `bare`, for the cold loads of /login and of / (`bareLoad`): a headless Chromium driven over the DevTools pipe with
 *   no domain enabled but Page, so the page runs as in a member's browser;
 * - `playwright`, for the landing page reloaded after a sign-in through the form, which needs Playwright to fill the
 *   form and click (`playwrightLoad`). Playwright enables the Runtime and Network domains, and the page pays for them
 *   (`SOURCE_POSITIONS_AT_COMPILE` takes back part of it): that figure errs slow.
 * Both run at a lower CPU priority than the server side (`LOW_PRIORITY_CHROMIUM`).
 */
export interface PageBrowsers {
  bare: PipeCdp;
  playwright: Browser;
}

export async function launchPageBrowsers(): Promise<PageBrowsers> {
  return { bare: launchBare(), playwright: await launch() };
}

export async function closePageBrowsers(b: PageBrowsers): Promise<void> {
  await Promise.all([b.bare.close(), b.playwright.close()]);
}

/**
 * One load of a page kind, in a fresh browser context (so an empty cache to start with), in the browser for its kind.
 * `latencyMs` (cold loads, not the reload) delays every response by that long, as a network's round trip would.
 */
export function coldLoad(
  browsers: PageBrowsers,
  base: string,
  brand: { id: string; marker: string },
  kind: PageKind,
  cpuRate: number,
  latencyMs = 0,
): Promise<LoadFigures> {
  if (kind === 'reload') {
    if (latencyMs) throw new Error('a network latency is for the cold loads (login, landing), not the reload');
    return playwrightLoad(browsers.playwright, base, brand, kind, cpuRate);
  }
  return bareLoad(browsers.bare, base, brand, kind, cpuRate, 30_000, latencyMs);
}

/**
 * One cold load of /login or of / (signed in) in the bare browser (`bareNavigate`), ready once the page's moment is
 * noted: "Sign in" works, or the toolbar names the user. The requests are the document and the page's resource timing
 * entries.
 */
export async function bareLoad(
  cdp: PipeCdp,
  base: string,
  brand: { id: string; marker: string },
  kind: 'login' | 'landing',
  cpuRate: number,
  timeoutMs = 30_000,
  latencyMs = 0,
): Promise<LoadFigures> {
  const user = DEMO_USER[brand.id];
  if (!user) throw new Error(`no demo user for ${brand.id}`);
  const session = kind === 'landing' ? sessionInitScript(await signIn(base, brand.marker, user)) : null;
  return bareNavigate(cdp, siteUrl(base, brand.marker, kind === 'login' ? '/login' : '/'), {
    label: `${kind} ${brand.id} cpu/${cpuRate}`,
    cpuRate,
    timeoutMs,
    latencyMs,
    initScripts: session ? [session] : [],
    ready: (m) => (kind === 'login' ? m.signInAt : m.namedAt) !== null,
  });
}

/**
 * A cold load of `url` in the bare browser, as the page bench makes them: a context and page of their own (removed
 * afterwards), the CPU throttled, the observers and `initScripts` installed, then the navigation; done at the page's
 * `networkIdle` (no request for 500 ms, Chromium's own lifecycle event) once `ready` holds for its figures. Then, and not
 * before, it runs one thing in the page: a read of the figures. No DevTools domain but Page is enabled (the Network
 * domain only when `latencyMs` asks for network emulation).
 */
async function bareNavigate(
  cdp: PipeCdp,
  url: string,
  o: { label: string; cpuRate: number; timeoutMs: number; latencyMs: number; initScripts: string[]; ready: (m: PageMetrics) => boolean },
): Promise<LoadFigures> {
  const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext');
  let where = '';
  try {
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const page = <T = Record<string, unknown>>(method: string, params: object = {}) => cdp.send<T>(method, params, sessionId);
    const evaluate = async <T>(expression: string) =>
      (await page<{ result: { value: T } }>('Runtime.evaluate', { expression, returnByValue: true })).result.value;
    await page('Emulation.setDeviceMetricsOverride', { width: 1280, height: 800, deviceScaleFactor: 1, mobile: false });
    if (o.cpuRate > 1) await page('Emulation.setCPUThrottlingRate', { rate: o.cpuRate });
    // Chromium's network emulation needs the Network domain, which the page then pays for (see
    // SOURCE_POSITIONS_AT_COMPILE): compare loads with the same latency, not with loads without one.
    if (o.latencyMs > 0) {
      await page('Network.enable');
      await page('Network.emulateNetworkConditions', { offline: false, latency: o.latencyMs, downloadThroughput: -1, uploadThroughput: -1 });
    }
    await page('Page.enable');
    await page('Page.setLifecycleEventsEnabled', { enabled: true });
    for (const source of [OBSERVERS, ...o.initScripts]) await page('Page.addScriptToEvaluateOnNewDocument', { source });
    // The main frame's network idle after this navigation (an earlier one, of about:blank, has another loader).
    let loaderId = '';
    let idle = false;
    const stop = cdp.onEvent((e) => {
      if (e.sessionId === sessionId && e.method === 'Page.lifecycleEvent' && e.params.name === 'networkIdle' && e.params.loaderId === loaderId) idle = true;
    });
    try {
      ({ loaderId } = await page<{ loaderId: string }>('Page.navigate', { url }));
      const until = Date.now() + o.timeoutMs;
      let m: PageMetrics | null = null;
      for (;;) {
        if (idle) {
          m = JSON.parse(await evaluate<string>(READ_METRICS)) as PageMetrics;
          if (o.ready(m)) break;
        }
        if (Date.now() > until) {
          where = await evaluate<string>('location.pathname + ": " + (document.body ? document.body.innerText.slice(0, 160) : "")').catch(() => '');
          throw new Error(`not ready after ${o.timeoutMs} ms`);
        }
        await sleep(100);
      }
      const requests = 1 + (await evaluate<number>("performance.getEntriesByType('resource').length"));
      const path = await evaluate<string>('location.pathname');
      return { fcp: m.fcp ?? Number.NaN, lcp: m.lcp ?? Number.NaN, cls: m.cls, tbt: m.tbt, requests, url: path };
    } finally {
      stop();
    }
  } catch (e) {
    throw new Error(`${o.label}: ${(e as Error).message.split('\n')[0]}${where ? ` (at ${where.replace(/\s+/g, ' ')})` : ''}`);
  } finally {
    await cdp.send('Target.disposeBrowserContext', { browserContextId }).catch(() => {});
  }
}

/**
 * The browser's floor beside the page figures: a static page with a heading and a paragraph, no script, no style sheet
 * and no font, served by the bench itself. A cold load of it costs what any page costs the browser before the page's own
 * work (a renderer's navigation, its window's script context, the first layout and paint), so the landing's LCP less
 * this one is what the product adds. Printed beside the budgets, as the hello-world is beside /health; not a budget.
 */
export const FLOOR_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title></head>' +
  '<body><h1>The browser&rsquo;s floor</h1><p>A static page with no script, no style sheet and no font, loaded cold as the sites are.</p></body></html>';

/** Serves `FLOOR_PAGE` on loopback for the floor loads; `stop` closes the server. */
export async function startFloorPage(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(FLOOR_PAGE);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

/** One cold load of the floor page (`startFloorPage`'s url) in the bare browser: ready once its largest paint is seen. */
export const floorLoad = (cdp: PipeCdp, url: string, cpuRate: number, timeoutMs = 30_000): Promise<LoadFigures> =>
  bareNavigate(cdp, url, { label: `floor cpu/${cpuRate}`, cpuRate, timeoutMs, latencyMs: 0, initScripts: [], ready: (m) => m.lcp !== null });

/** Median FCP and LCP over `runs` cold loads of the floor page, after one that is not counted, as `measurePage` does. */
export async function measureFloor(
  cdp: PipeCdp,
  url: string,
  cpuRate: number,
  runs: number,
): Promise<{ fcp: number; lcp: number; requests: number; samples: LoadFigures[] }> {
  await floorLoad(cdp, url, cpuRate);
  const samples: LoadFigures[] = [];
  for (let i = 0; i < runs; i++) samples.push(await floorLoad(cdp, url, cpuRate));
  const med = (k: 'fcp' | 'lcp' | 'requests') => Math.round(median(samples.map((s) => s[k])));
  return { fcp: med('fcp'), lcp: med('lcp'), requests: med('requests'), samples };
}

/** One load of a page kind in Playwright, in a fresh browser context (so an empty cache to start with). */
export async function playwrightLoad(
  browser: Browser,
  base: string,
  brand: { id: string; marker: string },
  kind: PageKind,
  cpuRate: number,
): Promise<LoadFigures> {
  const { context, page } = await coldPage(browser, cpuRate);
  try {
    const signInMs = kind === 'reload' ? await signInThroughForm(page, base, brand) : undefined;
    if (kind === 'landing') {
      const user = DEMO_USER[brand.id];
      if (!user) throw new Error(`no demo user for ${brand.id}`);
      await context.addInitScript({ content: sessionInitScript(await signIn(base, brand.marker, user)) });
    }
    const net = trackNetwork(page);
    // Ready when "Sign in" works, or signed in when the toolbar names the user ('/' then redirects to the landing
    // page, or stays with no page to open).
    const ready = pageReady(page, kind === 'login' ? 'sign-in' : 'named');
    if (kind === 'reload') await page.reload();
    else await page.goto(siteUrl(base, brand.marker, kind === 'login' ? '/login' : '/'));
    await ready;
    await net.idle();
    const m = await readMetrics(page);
    if (kind !== 'login') await displayName(page, brand.id);
    const figures = { fcp: m.fcp ?? Number.NaN, lcp: m.lcp ?? Number.NaN, cls: m.cls, tbt: m.tbt, requests: net.requests(), url: new URL(page.url()).pathname };
    return signInMs === undefined ? figures : { signIn: signInMs, ...figures };
  } catch (e) {
    const where = page.url();
    const text = await page
      .evaluate('document.body ? document.body.innerText.slice(0, 160) : ""')
      .then((t) => String(t).replace(/\s+/g, ' '))
      .catch(() => '');
    throw new Error(`${kind} ${brand.id} cpu/${cpuRate}: ${(e as Error).message.split('\n')[0]} (at ${where}: "${text}")`);
  } finally {
    await context.close();
  }
}

export interface PageResult extends LoadFigures {
  brand: string;
  kind: PageKind;
  cpuRate: number;
  runs: number;
  samples: LoadFigures[];
  /** Failed loads (each retried once); a figure from fewer than `runs` samples is not reported as meeting its budget. */
  errors: string[];
}

/** Median over `runs` cold loads, after one load that warms the server (not counted). */
export async function measurePage(
  browsers: PageBrowsers,
  base: string,
  brand: { id: string; marker: string },
  kind: PageKind,
  cpuRate: number,
  runs: number,
): Promise<PageResult> {
  const errors: string[] = [];
  // A load that fails (a timeout under contention, a site mid-rebuild) is retried once, then recorded as an error.
  const attempt = async (): Promise<LoadFigures | null> => {
    for (let tries = 0; tries < 2; tries++) {
      try {
        return await coldLoad(browsers, base, brand, kind, cpuRate);
      } catch (e) {
        errors.push((e as Error).message.split('\n')[0] ?? String(e));
      }
    }
    return null;
  };
  await attempt();
  const samples: LoadFigures[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await attempt();
    if (s) samples.push(s);
  }
  const med = (k: 'fcp' | 'lcp' | 'cls' | 'tbt' | 'requests') => median(samples.map((s) => s[k]));
  return {
    brand: brand.id,
    kind,
    cpuRate,
    runs,
    ...(kind === 'reload' ? { signIn: Math.round(median(samples.map((s) => s.signIn ?? Number.NaN))) } : {}),
    fcp: Math.round(med('fcp')),
    lcp: Math.round(med('lcp')),
    cls: Math.round(med('cls') * 10000) / 10000,
    tbt: Math.round(med('tbt')),
    requests: med('requests'),
    url: samples[0]?.url ?? '',
    samples,
    errors,
  };
}
