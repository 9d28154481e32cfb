/**
 * Grid windowing benchmark: the kit gallery's 100,000-row local grid in headless Chromium, scrolled top to bottom in
 * steps. Reports the most rows ever in the DOM and the longest main-thread task while scrolling (CDP trace of the
 * renderer's main thread; the PerformanceObserver 'longtask' entries are read as a cross-check).
 *
 *   node --import tsx scripts/bench/grid.ts [--rebuild] [--steps 200] [--profile]
 *
 * GRID_BENCH_TRACE=file.json keeps the Chrome trace; with --profile, GRID_BENCH_PROFILE=file.cpuprofile keeps the CPU
 * profile (DevTools opens both).
 *
 * Targets: fewer than 100 rows in the DOM, no task over 50 ms; the process exits 1 when one is missed.
 * The staff bundle in apps/web/dist/staff is reused when it holds the gallery (else built, like `pnpm build staff`);
 * WEB_DIST_DIR points at another build. The server is scripts/e2e-server.ts (fresh seeded data directory) on
 * GRID_BENCH_PORT (8480) with its sandbox on GRID_BENCH_SANDBOX_PORT (8490), so it does not collide with e2e runs.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withSeededStaff } from './seededStaff';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
export const GRID_TARGETS = { maxRowsInDom: 100, maxTaskMs: 50 } as const;

export interface GridBenchResult {
  rowsInDom: number;
  longestTaskMs: number;
  /** The longest task's main-thread CPU time (trace thread time): what other processes on the cores do not stretch. */
  longestTaskCpuMs: number;
}

export interface GridBenchOptions {
  rebuild?: boolean;
  /** Scroll steps from top to bottom. */
  steps?: number;
  port?: number;
  /** Also records a CPU profile while scrolling and prints the functions with the most self time. */
  profile?: boolean;
  sandboxPort?: number;
  log?: (message: string) => void;
}

const galleryBuilt = (dist: string) => {
  const assets = join(dist, 'staff', 'assets');
  return existsSync(assets) && readdirSync(assets).some((f) => f.startsWith('KitGalleryPage-') && f.endsWith('.js'));
};

/** The directory holding dist/staff with the gallery, building it when missing (or when asked). */
async function staffBundle(rebuild: boolean, log: (m: string) => void): Promise<string> {
  const given = process.env.WEB_DIST_DIR;
  if (given) {
    if (!galleryBuilt(given)) throw new Error(`WEB_DIST_DIR=${given} has no staff bundle with the kit gallery`);
    return given;
  }
  const dist = join(ROOT, 'apps', 'web', 'dist');
  if (!rebuild && galleryBuilt(dist)) {
    log('reusing the staff bundle in apps/web/dist/staff');
    return dist;
  }
  log('building the staff bundle');
  const { loadBrands } = await import('@portal/brands');
  const { installedPluginIds } = await import('@portal/brands/plugins');
  const { buildBrand } = await import('../../apps/web/build');
  const staff = loadBrands(installedPluginIds()).find((b) => b.id === 'staff');
  if (!staff) throw new Error('no staff brand');
  await buildBrand(staff, dist);
  return dist;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event, µs. */
  tdur?: number;
  args?: { name?: string };
}

/**
 * Longest top-level task (ms) on any renderer main thread in a Chrome trace; also the longest with the garbage
 * collector's share (V8 GC events inside the task) taken out, which tells script and layout work from GC pauses, and
 * the longest in CPU time (the thread's own time, which a busy machine does not stretch the way it stretches wall time).
 */
export function longestRendererTask(trace: { traceEvents: TraceEvent[] }): { total: number; withoutGc: number; cpu: number } {
  const mains = new Set(
    trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = trace.traceEvents.filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  // Outermost GC events only (they nest), per thread, in time order.
  const gcs = onMain.filter((e) => /^(V8\.GC_|MajorGC|MinorGC)/.test(e.name)).sort((a, b) => a.ts - b.ts);
  let total = 0;
  let withoutGc = 0;
  let cpu = 0;
  for (const task of tasks) {
    cpu = Math.max(cpu, (task.tdur ?? 0) / 1000);
    const end = task.ts + (task.dur ?? 0);
    let gc = 0;
    let coveredTo = task.ts;
    for (const e of gcs) {
      if (e.pid !== task.pid || e.tid !== task.tid || e.ts < task.ts || e.ts >= end) continue;
      const to = Math.min(end, e.ts + (e.dur ?? 0));
      if (to > coveredTo) {
        gc += to - Math.max(coveredTo, e.ts);
        coveredTo = to;
      }
    }
    total = Math.max(total, (task.dur ?? 0) / 1000);
    withoutGc = Math.max(withoutGc, ((task.dur ?? 0) - gc) / 1000);
  }
  return { total, withoutGc, cpu };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

function printProfile(profile: CpuProfile, log: (m: string) => void) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) log(`  self ${ms.toFixed(1).padStart(8)} ms  ${key}`);
}

export async function runGridBench(options: GridBenchOptions = {}): Promise<GridBenchResult> {
  const log = options.log ?? ((m: string) => console.log(`grid bench: ${m}`));
  const port = options.port ?? Number(process.env.GRID_BENCH_PORT ?? 8480);
  const sandboxPort = options.sandboxPort ?? Number(process.env.GRID_BENCH_SANDBOX_PORT ?? 8490);
  const steps = options.steps ?? 200;
  const dist = await staffBundle(options.rebuild ?? false, log);

  return withSeededStaff({ port, sandboxPort, env: { WEB_DIST_DIR: dist }, log }, async ({ browser, page, site }) => {
    await page.goto(site('/kit-gallery?tab=local'));
    const grid = page.getByRole('grid', { name: 'Generated claims' });
    await grid.locator('tbody tr[aria-rowindex]').first().waitFor();
    // Let the first render (100,000 rows into the table model) settle, and finish the garbage collection that loading
    // started, so the figures are about scrolling rather than about the page load.
    await page.waitForTimeout(1000);
    const gc = await page.context().newCDPSession(page);
    await gc.send('HeapProfiler.collectGarbage');
    await gc.detach();
    await page.waitForTimeout(500);
    const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
    log(`JS heap before scrolling: ${(heap / 1024 / 1024).toFixed(0)} MB`);

    // tsx (esbuild keepNames) wraps named inner functions in __name(); the page needs the helper for evaluate().
    await page.evaluate('window.__name = (fn) => fn');
    await page.evaluate(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    });
    const cdp = options.profile ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const scrolled = await grid.evaluate(async (table, stepCount) => {
      const scroller = table.parentElement as HTMLElement;
      const frame = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
      // Every <tr> of the table counts: header, filter and spacer rows too.
      const rowCount = () => table.querySelectorAll('tr').length;
      let maxRows = rowCount();
      const end = scroller.scrollHeight - scroller.clientHeight;
      for (let i = 1; i <= stepCount; i++) {
        scroller.scrollTop = Math.round((end * i) / stepCount);
        await frame();
        maxRows = Math.max(maxRows, rowCount());
      }
      // A few wheel-sized steps as well: small moves re-render without jumping the window.
      for (let i = 0; i < 20; i++) {
        scroller.scrollTop -= 120;
        await frame();
        maxRows = Math.max(maxRows, rowCount());
      }
      scroller.scrollTop = end;
      await frame();
      const last = [...table.querySelectorAll('tbody tr[aria-rowindex]')].at(-1);
      return { maxRows, lastRowIndex: Number(last?.getAttribute('aria-rowindex') ?? 0), rowCount: rowCount() };
    }, steps);
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      printProfile(profile as CpuProfile, log);
      if (process.env.GRID_BENCH_PROFILE) writeFileSync(process.env.GRID_BENCH_PROFILE, JSON.stringify(profile));
    }
    const traceBytes = await browser.stopTracing();
    if (process.env.GRID_BENCH_TRACE) writeFileSync(process.env.GRID_BENCH_TRACE, traceBytes);
    const trace = JSON.parse(traceBytes.toString('utf8')) as { traceEvents: TraceEvent[] };
    const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    if (scrolled.lastRowIndex !== 100_001) throw new Error(`the grid did not reach its last row (aria-rowindex ${scrolled.lastRowIndex})`);
    const traced = longestRendererTask(trace);
    const observed = Math.max(0, ...longTasks);
    log(`longtask entries while scrolling: ${longTasks.length}${longTasks.length ? ` (longest ${observed.toFixed(1)} ms)` : ''}`);
    log(`longest task without its garbage-collection share: ${traced.withoutGc.toFixed(1)} ms`);
    log(`longest task in main-thread CPU time: ${traced.cpu.toFixed(1)} ms (wall time beyond it is waiting for a core)`);
    return {
      rowsInDom: scrolled.maxRows,
      longestTaskMs: Math.round(Math.max(traced.total, observed) * 10) / 10,
      longestTaskCpuMs: Math.round(traced.cpu * 10) / 10,
    };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--steps');
  const result = await runGridBench({
    rebuild: process.argv.includes('--rebuild'),
    steps: i === -1 ? 200 : Number(process.argv[i + 1]),
    profile: process.argv.includes('--profile'),
  });
  const rowsOk = result.rowsInDom < GRID_TARGETS.maxRowsInDom;
  const taskOk = result.longestTaskMs <= GRID_TARGETS.maxTaskMs;
  console.log(`rows in the DOM (max while scrolling): ${result.rowsInDom}  target < ${GRID_TARGETS.maxRowsInDom}  ${rowsOk ? 'ok' : 'MISSED'}`);
  console.log(`longest main-thread task while scrolling: ${result.longestTaskMs} ms  target <= ${GRID_TARGETS.maxTaskMs} ms  ${taskOk ? 'ok' : 'MISSED'}`);
  process.exit(rowsOk && taskOk ? 0 : 1);
}
