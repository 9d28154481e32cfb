/**
 * The web app over a long session: a staff SuperUser acting for a member (the staff build holds every plugin) follows
 * every link of the main navigation in turn, round after round, as a user working through a day would, in headless
 * Chromium. After each round the page's garbage is collected (twice, through CDP) and the bench reads what is still
 * held: the JS heap, the DOM nodes, the documents and the DOM event listeners. A page that keeps something of each
 * visit (a listener never removed, a cache keyed by something new each time, a detached subtree a closure holds) makes
 * them grow with every round; a page that lets go leaves them flat, whatever it used while drawn.
 *
 *   node --import tsx scripts/bench/memory.ts [--rounds 20] [--port 8480]
 *
 * Targets (MEMORY_TARGETS), each round against the second (the first warms the caches every page fills once: the
 * code, the query cache's first answers, the lazy chunks):
 * - the JS heap grows at most 100 KiB a round over the second half of the rounds (V8 keeps optimising code for a
 *   while, a few tens of KiB a round; one page's data kept per visit is far more);
 * - the DOM nodes and the DOM event listeners left after a round, on the same last page, grow by at most 50 and 10 from
 *   the second round to the last (the last page's own state moves them by a few tens: a leaked subtree or listener
 *   a visit is hundreds over twenty rounds); the documents (the page and its frames) not at all.
 * The process exits 1 when one is missed. The server is scripts/e2e-server.ts (fresh seeded data) serving
 * apps/web/dist (`pnpm build` first, or WEB_DIST_DIR), on --port with its sandbox on --port + 10.
 */
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { withSeededStaff } from './seededStaff';

export const MEMORY_TARGETS = { heapKiBPerRound: 100, nodesGrowth: 50, listenersGrowth: 10, documentsGrowth: 0 } as const;

/** What the page still holds after a round, once its garbage is collected. */
export interface RoundHeld {
  round: number;
  heapKiB: number;
  nodes: number;
  documents: number;
  listeners: number;
}

export interface MemoryVerdict {
  /** Heap growth per round, KiB, over the second half of the rounds (Theil-Sen: the median of the pairs' slopes). */
  heapKiBPerRound: number;
  nodesGrowth: number;
  listenersGrowth: number;
  documentsGrowth: number;
  missed: string[];
}

/**
 * The slope of `ys` over their indices, Theil and Sen's: the median of the slopes between every pair of points. One
 * round that happens to end with more held (a collection that came a moment late, an answer still in flight) does not
 * make a slope of it, as it would of a least-squares line; a growth every round does.
 */
export function slope(ys: number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < ys.length; i++) for (let j = i + 1; j < ys.length; j++) slopes.push(((ys[j] as number) - (ys[i] as number)) / (j - i));
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length >> 1;
  return slopes.length % 2 ? (slopes[mid] as number) : ((slopes[mid - 1] as number) + (slopes[mid] as number)) / 2;
}

/** Judges the rounds against MEMORY_TARGETS (at least four rounds: the first is the warm-up). */
export function judgeMemory(rounds: RoundHeld[]): MemoryVerdict {
  if (rounds.length < 4) throw new Error(`at least 4 rounds are needed, not ${rounds.length}`);
  const second = rounds[1] as RoundHeld;
  const last = rounds[rounds.length - 1] as RoundHeld;
  const half = rounds.slice(Math.floor(rounds.length / 2));
  const heapKiBPerRound = Math.round(slope(half.map((r) => r.heapKiB)) * 10) / 10;
  const verdict = {
    heapKiBPerRound,
    nodesGrowth: last.nodes - second.nodes,
    listenersGrowth: last.listeners - second.listeners,
    documentsGrowth: last.documents - second.documents,
  };
  const missed: string[] = [];
  if (verdict.heapKiBPerRound > MEMORY_TARGETS.heapKiBPerRound)
    missed.push(`the JS heap grows ${verdict.heapKiBPerRound} KiB a round (at most ${MEMORY_TARGETS.heapKiBPerRound})`);
  if (verdict.nodesGrowth > MEMORY_TARGETS.nodesGrowth) missed.push(`${verdict.nodesGrowth} more DOM nodes after round ${last.round} than after round 2`);
  if (verdict.listenersGrowth > MEMORY_TARGETS.listenersGrowth)
    missed.push(`${verdict.listenersGrowth} more DOM event listeners after round ${last.round} than after round 2`);
  if (verdict.documentsGrowth > MEMORY_TARGETS.documentsGrowth)
    missed.push(`${verdict.documentsGrowth} more documents after round ${last.round} than after round 2`);
  return { ...verdict, missed };
}

export interface MemoryBenchOptions {
  rounds?: number;
  port?: number;
  log?: (message: string) => void;
}

export interface MemoryBenchResult {
  pages: string[];
  rounds: RoundHeld[];
  verdict: MemoryVerdict;
  /** Wall time of one round, ms (the median). */
  roundMs: number;
}

/** Follows the navigation link to `href` and waits for its page to settle (its main drawn, nothing in it busy). */
async function visit(page: Page, href: string) {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.locator(`a[href="${href}"]`).first().click();
  await page.waitForURL((u) => u.pathname === href.split('?')[0]);
  await page.locator('main').first().waitFor();
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
}

export async function runMemoryBench(options: MemoryBenchOptions = {}): Promise<MemoryBenchResult> {
  const rounds = options.rounds ?? 20;
  const port = options.port ?? 8480;
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  return withSeededStaff({ port, sandboxPort: port + 10, log }, async ({ page }) => {
    // Acting for a member with bills, so the member pages show a member's data, not the hint to pick one.
    const found = await page.evaluate(async () => {
      // As the app's own client calls the API: its session's access and form tokens (sessionStorage, `cq.`).
      const res = await fetch('/api/claims/search', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sessionStorage.getItem('cq.accessToken')}`,
          'x-form-token': sessionStorage.getItem('cq.formToken') ?? '',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ PageIndex: 0, PageSize: 5 }),
      });
      return res.ok ? ((await res.json()) as { Data: { Items: { MemberID: number }[] } }).Data.Items[0]?.MemberID : undefined;
    });
    if (found) {
      await page.getByLabel('Member ID or number to act for').fill(String(found));
      await page.getByRole('button', { name: 'Act for member' }).click();
      await page.getByText(`Acting on behalf of member ${found}`).waitFor();
      log(`acting for member ${found}`);
    } else log('no member with bills found: the member pages show the hint to pick one');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.waitFor();
    const pages = [...new Set(await nav.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '').filter((h) => h.startsWith('/'))))];
    log(`${pages.length} pages: ${pages.join(' ')}`);
    const cdp = await page.context().newCDPSession(page);
    const held: RoundHeld[] = [];
    const times: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const started = Date.now();
      for (const href of pages) await visit(page, href);
      times.push(Date.now() - started);
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = await cdp.send('Runtime.getHeapUsage');
      const dom = (await cdp.send('Memory.getDOMCounters' as 'Runtime.getHeapUsage')) as unknown as {
        documents: number;
        nodes: number;
        jsEventListeners: number;
      };
      const r = { round, heapKiB: Math.round(heap.usedSize / 1024), nodes: dom.nodes, documents: dom.documents, listeners: dom.jsEventListeners };
      held.push(r);
      log(`round ${round}: heap ${r.heapKiB} KiB, ${r.nodes} nodes, ${r.documents} documents, ${r.listeners} listeners (${times.at(-1)} ms)`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { pages, rounds: held, verdict: judgeMemory(held), roundMs: sorted[Math.floor(sorted.length / 2)] ?? 0 };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const num = (name: string, fallback: number) => {
    const i = argv.indexOf(`--${name}`);
    const v = i === -1 ? Number.NaN : Number(argv[i + 1]);
    return Number.isFinite(v) ? v : fallback;
  };
  const r = await runMemoryBench({ rounds: num('rounds', 20), port: num('port', 8480) });
  const v = r.verdict;
  const first = r.rounds[1] as RoundHeld;
  const last = r.rounds.at(-1) as RoundHeld;
  console.log(`${r.pages.length} pages a round, ${r.rounds.length} rounds, ${r.roundMs} ms a round (median)`);
  console.log(
    `JS heap after GC: ${first.heapKiB} KiB after round 2, ${last.heapKiB} after round ${last.round}; ${v.heapKiBPerRound} KiB a round over the second half (budget <= ${MEMORY_TARGETS.heapKiBPerRound})`,
  );
  console.log(
    `DOM nodes ${first.nodes} -> ${last.nodes} (budget <= +${MEMORY_TARGETS.nodesGrowth}), listeners ${first.listeners} -> ${last.listeners} (<= +${MEMORY_TARGETS.listenersGrowth}), documents ${first.documents} -> ${last.documents} (+${MEMORY_TARGETS.documentsGrowth})`,
  );
  console.log(v.missed.length ? `MISSED: ${v.missed.join('; ')}` : 'all targets met');
  process.exit(v.missed.length ? 1 : 0);
}
