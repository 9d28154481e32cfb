/**
 * Two builds of the brand sites compared on one page kind, load by load: which one is faster, and is the difference
 * larger than this machine's noise? Each build is served by its own seeded stack; the loads alternate between them
 * (ABBA), one fresh browser context per load, and the figure is each build's median with a 95% bootstrap interval of
 * the difference. A diagnostic beside the page bench, for deciding whether a change is kept; not a budget.
 *
 *   node --import tsx scripts/bench/ab.ts --a DIR --b DIR [--brands card,finance] [--loads 40] [--kind landing]
 *     [--cpu 4] [--figure lcp|fcp|cls|tbt|requests] [--latency MS]
 *
 * `--latency MS` delays every response of a cold load by MS (Chromium's network emulation), as a network's round trip
 * would: what loopback hides, such as a call that waits for a chunk before it can start.
 *
 * DIR is a build's output (`WEB_DIST_DIR=DIR pnpm build card finance`). On this two-core VM one cold landing at CPU/4
 * varies by ±150 ms from load to load, so a 50 ms difference needs about 100 loads per build to show.
 */
import { compare, pairOrder } from './ab-stats';
import { closePageBrowsers, coldLoad, type LoadFigures, launchPageBrowsers, type PageKind } from './browser';
import { startStack } from './lib';

const arg = (name: string, fallback?: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : process.argv[i + 1];
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
};
const dirs = { A: arg('a'), B: arg('b') };
const brands = arg('brands', 'card').split(',');
const loads = Number(arg('loads', '40'));
const kind = arg('kind', 'landing') as PageKind;
const cpu = Number(arg('cpu', '4'));
const latency = Number(arg('latency', '0'));
const figure = arg('figure', 'lcp') as keyof Pick<LoadFigures, 'fcp' | 'lcp' | 'cls' | 'tbt' | 'requests'>;
// CLS is a score, not milliseconds: shown to four places, with how many loads shifted at all.
const shown = (x: number) => (figure === 'cls' ? x.toFixed(4) : String(Math.round(x)));
const unit = figure === 'cls' || figure === 'requests' ? '' : ' ms';
const verdict = (d: number) => (unit ? (d < 0 ? 'B is faster' : 'B is slower') : d < 0 ? 'B is lower' : 'B is higher');

const stacks = {} as Record<'A' | 'B', Awaited<ReturnType<typeof startStack>>>;
for (const [i, which] of (['A', 'B'] as const).entries()) {
  process.env.WEB_DIST_DIR = dirs[which];
  stacks[which] = await startStack({ port: 8630 + 20 * i, sandboxPort: 8640 + 20 * i });
}
const browsers = await launchPageBrowsers();
const samples: Record<string, Record<'A' | 'B', number[]>> = {};
try {
  // One load of each brand on each stack first: it warms the server, not the browser (every load is a fresh context).
  for (const brand of brands)
    for (const which of ['A', 'B'] as const) await coldLoad(browsers, stacks[which].url, { id: brand, marker: brand }, kind, cpu, latency);
  for (let i = 0; i < loads; i++) {
    for (const brand of brands) {
      const line: string[] = [];
      for (const which of pairOrder(i)) {
        const s = await coldLoad(browsers, stacks[which].url, { id: brand, marker: brand }, kind, cpu, latency).catch((e: Error) => {
          console.error(`${brand} ${which}: ${e.message}`);
          return null;
        });
        samples[brand] ??= { A: [], B: [] };
        samples[brand][which].push(s ? s[figure] : Number.NaN);
        line.push(`${which} ${s ? shown(s[figure]) : 'failed'}`);
      }
      console.log(`${i + 1}/${loads} ${brand}: ${line.join(', ')}`);
    }
  }
} finally {
  await closePageBrowsers(browsers);
  await Promise.all(Object.values(stacks).map((s) => s.stop()));
}
console.log(`\n${kind} ${figure} at CPU/${cpu}${latency ? `, ${latency} ms latency` : ''}, A = ${dirs.A}, B = ${dirs.B}`);
for (const [brand, { A, B }] of Object.entries(samples)) {
  const c = compare(A, B);
  const r = shown;
  const shifted = figure === 'cls' ? `; loads with a shift: A ${A.filter((x) => x > 0).length}, B ${B.filter((x) => x > 0).length}` : '';
  console.log(
    `${brand}: A ${r(c.a.median)} (${c.a.n} loads), B ${r(c.b.median)} (${c.b.n} loads), B − A ${r(c.difference)}${unit}, 95% interval ${r(c.low)} to ${r(c.high)}: ${c.clear ? verdict(c.difference) : 'no clear difference'}${shifted}`,
  );
}
