/**
 * Where a load of the landing page spends its time: a Chromium trace of one signed-in load of `/` at CPU/4, printed
 * as a timeline (ms from navigation) of the main thread's long events, the requests, when each API call's answer
 * arrives, first contentful paint and the LCP candidates (with the element each one is). Cold by default; with
 * --reload, the landing page reloaded in the tab just signed in with through the sign-in form (the page bench's
 * "reloaded after sign-in"). With --by-event, also the main thread's time up to the LCP summed by trace event (nested
 * events count in each of their parents too), to compare two browsers' builds (`BENCH_CHROMIUM`) step by step. A
 * diagnostic beside the page bench, not a budget:
 *   node --import tsx scripts/bench/landing-trace.ts [brand] [--cpu 4] [--min-ms 20] [--reload] [--all-answers] [--by-event]
 * Builds nothing: it serves WEB_DIST_DIR (or apps/web/dist) through the seeded end-to-end server.
 */
import { installObservers, launch, namedUser, pageReady, sessionInitScript, signInThroughForm, siteUrl } from './browser';
import { DEMO_USER, option, signIn, startStack } from './lib';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string; size?: number; requestId?: string }; beginData?: { url?: string } };
}

const brand = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'finance';
const cpu = Number(option('cpu', '4'));
const minMs = Number(option('min-ms', '20'));
const reload = process.argv.includes('--reload');
// Every response's arrival in the page (scripts and style sheets too), as well as the API calls'.
const allAnswers = process.argv.includes('--all-answers');
const byEvent = process.argv.includes('--by-event');
const user = DEMO_USER[brand];
if (!user) throw new Error(`no demo user for ${brand}`);

const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
/**
 * Which element each LCP candidate is, as the page's own observer sees it: its tag, the dashboard frame or test id
 * around it, its size and the start of its text (the trace names a candidate by its size alone).
 */
const LCP_ELEMENTS = `window.__lcpElements = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const el = e.element;
    const around = el && el.closest('[data-widget],[data-testid]');
    const where = around ? around.getAttribute('data-widget') || around.getAttribute('data-testid') : '';
    window.__lcpElements.push({ at: Math.round(e.startTime), size: e.size, tag: el ? el.tagName.toLowerCase() : '(gone)', where, text: el ? el.textContent.trim().slice(0, 40) : '' });
  }
}).observe({ type: 'largest-contentful-paint', buffered: true });`;
interface LcpElement {
  at: number;
  size: number;
  tag: string;
  where: string;
  text: string;
}
const stack = await startStack({ port: 8630, sandboxPort: 8640 });
const browser = await launch();
try {
  const session = sessionInitScript(await signIn(stack.url, brand, user));
  // The first load warms the server and the site's files; the second is traced.
  for (const traced of [false, true]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await installObservers(context);
    await context.addInitScript({ content: LCP_ELEMENTS });
    if (!reload) await context.addInitScript({ content: session });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    // As a member's tab: signed in through the form, on the landing page, with that tab's browser cache.
    if (reload) await signInThroughForm(page, stack.url, { id: brand, marker: brand });
    if (traced)
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'blink.user_timing',
          'loading',
          'v8.execute',
          'disabled-by-default-devtools.timeline',
          // V8's own events (context deserialisation, compiles, GC) for the sums by event.
          ...(byEvent ? ['v8', 'disabled-by-default-v8.compile'] : []),
        ],
      });
    // Waited for without a locator, so no script of Playwright's runs on the page's main thread while it loads.
    const named = pageReady(page, 'named');
    if (reload) await page.reload();
    else await page.goto(siteUrl(stack.url, brand, '/'));
    await named;
    await page.waitForTimeout(1500);
    await namedUser(page, user).waitFor({ state: 'visible', timeout: 1000 });
    if (traced) {
      const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      // The page's main thread: the one that parses the site's HTML. Chromium's own pages (the omnibox's WebUI, which
      // headless Chromium loads too) parse HTML and start navigations of their own in other renderers.
      const parses = new Map<string, number>();
      for (const e of traceEvents)
        if (e.name === 'ParseHTML' && JSON.stringify(e.args ?? {}).includes('.localhost:'))
          parses.set(`${e.pid}:${e.tid}`, (parses.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
      const main = [...parses].sort((a, b) => b[1] - a[1])[0]?.[0];
      const renderer = Number(main?.split(':')[0]);
      // That renderer's navigation start; else the request for the page itself.
      const starts = traceEvents.filter((e) => e.name === 'navigationStart' && e.pid === renderer).map((e) => e.ts);
      const t0 = starts.length
        ? Math.max(...starts)
        : Math.min(...traceEvents.filter((e) => e.name === 'ResourceSendRequest' && (e.args?.data?.url ?? '').includes('.localhost:')).map((e) => e.ts));
      const ms = (ts: number) => Math.round((ts - t0) / 1000);
      const lines: [number, string][] = [];
      const shown = new Set([
        'v8.evaluateModule',
        'EvaluateScript',
        'FunctionCall',
        'RunMicrotasks',
        'Layout',
        'UpdateLayoutTree',
        'Paint',
        'ParseHTML',
        'EventDispatch',
        'TimerFire',
      ]);
      const urls = new Map<string, string>();
      for (const e of traceEvents) {
        const d = e.args?.data ?? {};
        if (e.name === 'ResourceSendRequest' && d.requestId) urls.set(d.requestId, path(d.url ?? ''));
        if (`${e.pid}:${e.tid}` === main && e.ph === 'X' && shown.has(e.name) && (e.dur ?? 0) >= minMs * 1000)
          lines.push([ms(e.ts), `main  ${e.name} ${Math.round((e.dur ?? 0) / 1000)} ms ${path(d.url ?? '')}`.trimEnd()]);
        if (e.name === 'ResourceSendRequest' && !/^(chrome|data):/.test(d.url ?? '')) lines.push([ms(e.ts), `fetch ${path(d.url ?? '')}`]);
        // An API call's answer: when the page is told of it, which is what it waits for.
        const answered = e.name === 'ResourceReceiveResponse' && d.requestId ? urls.get(d.requestId) : undefined;
        if (answered && !/^(chrome|data):/.test(answered) && (allAnswers || answered.startsWith('/api/'))) lines.push([ms(e.ts), `answer ${answered}`]);
        if (e.pid !== renderer) continue;
        if (e.name === 'firstContentfulPaint') lines.push([ms(e.ts), 'paint first contentful paint']);
        if (e.name === 'largestContentfulPaint::Candidate') lines.push([ms(e.ts), `paint LCP candidate (${d.size ?? '?'} px²)`]);
      }
      if (byEvent) {
        const lcpTs = Math.max(...traceEvents.filter((e) => e.pid === renderer && e.name === 'largestContentfulPaint::Candidate').map((e) => e.ts));
        const sums = new Map<string, number>();
        for (const e of traceEvents)
          if (`${e.pid}:${e.tid}` === main && e.ph === 'X' && e.ts >= t0 && e.ts <= lcpTs) sums.set(e.name, (sums.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
        console.log(`main thread's time from navigation to the LCP (${ms(lcpTs)} ms) by trace event, the 40 largest (ms):`);
        for (const [name, total] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${total.toFixed(1).padStart(8)}  ${name}`);
      }
      console.log(
        `${brand}, landing page${reload ? ' reloaded after sign-in' : ''}, CPU/${cpu}: main-thread events of ${minMs} ms or more, requests, paints (ms from navigation)`,
      );
      for (const [at, text] of lines.sort((a, b) => a[0] - b[0])) console.log(`${String(at).padStart(6)}  ${text}`);
      // The page's clock starts at its navigation too, so these line up with the timeline above within a few ms.
      console.log('LCP candidates as the page saw them (ms from navigation, px², element, frame or test id, text):');
      for (const c of (await page.evaluate('window.__lcpElements')) as LcpElement[])
        console.log(`${String(c.at).padStart(6)}  ${c.size} px²  <${c.tag}>  ${c.where || '-'}  "${c.text}"`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await stack.stop();
}
