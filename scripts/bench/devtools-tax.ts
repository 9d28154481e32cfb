/**
 * What a DevTools client costs the page it measures. One build, one seeded stack, three browsers, cold loads in turn
 * (P F B, B P F, F B P, …), one fresh context per load:
 * - **P**: Playwright as the page bench used it for every load until issue 23's twenty-fifth pass (Chromium's own V8
 *   settings). Playwright enables the Runtime and Network domains on every page.
 * - **F**: Playwright as the page bench now uses it for the reload after a sign-in (`launch()`: the same, plus
 *   `SOURCE_POSITIONS_AT_COMPILE`).
 * - **B**: the bare browser the page bench now uses for the cold loads (`bareLoad` over `PipeCdp`: no domain enabled but
 *   Page, nothing run in the page until it is ready and its network idle).
 * It prints each browser's median and the differences with their 95% bootstrap intervals. A diagnostic beside the page
 * bench, not a budget:
 *   node --import tsx scripts/bench/devtools-tax.ts [--brands finance,assist,card] [--loads 10] [--kind landing|login]
 *     [--cpu 4] [--figure lcp|fcp|tbt]
 * Builds nothing: it serves WEB_DIST_DIR (or apps/web/dist) through the seeded end-to-end server.
 */
import { compare } from './ab-stats';
import { bareLoad, launch, launchBare, playwrightLoad } from './browser';
import { median, option, startStack } from './lib';

const brands = option('brands', 'finance,assist,card').split(',');
const loads = Number(option('loads', '10'));
const kind = option('kind', 'landing') as 'landing' | 'login';
const cpu = Number(option('cpu', '4'));
const figure = option('figure', 'lcp') as 'lcp' | 'fcp' | 'tbt';
if (kind !== 'landing' && kind !== 'login') throw new Error('--kind is landing or login');

type Arm = 'P' | 'F' | 'B';
const stack = await startStack({ port: 8630, sandboxPort: 8640 });
const playwrightAsBefore = await launch([]);
const withFlag = await launch();
const bare = launchBare();

const load = async (arm: Arm, brand: string): Promise<number> => {
  const b = { id: brand, marker: brand };
  const f =
    arm === 'B' ? await bareLoad(bare, stack.url, b, kind, cpu) : await playwrightLoad(arm === 'P' ? playwrightAsBefore : withFlag, stack.url, b, kind, cpu);
  return f[figure];
};

const ORDERS: Arm[][] = [
  ['P', 'F', 'B'],
  ['B', 'P', 'F'],
  ['F', 'B', 'P'],
];
const samples: Record<string, Record<Arm, number[]>> = Object.fromEntries(brands.map((b) => [b, { P: [], F: [], B: [] }]));
try {
  // One load per browser and brand first: it warms the server, not the browser (every load is a fresh context).
  for (const brand of brands) for (const arm of ORDERS[0] ?? []) await load(arm, brand);
  for (let i = 0; i < loads; i++)
    for (const brand of brands) {
      const s = samples[brand] as Record<Arm, number[]>;
      const line: string[] = [];
      for (const arm of ORDERS[i % ORDERS.length] ?? []) {
        const v = await load(arm, brand).catch((e: Error) => {
          console.error(`${brand} ${arm}: ${e.message}`);
          return Number.NaN;
        });
        s[arm].push(v);
        line.push(`${arm} ${Math.round(v)}`);
      }
      console.log(`${i + 1}/${loads} ${brand}: ${line.join(', ')}`);
    }
} finally {
  await bare.close();
  await withFlag.close();
  await playwrightAsBefore.close();
  await stack.stop();
}

console.log(`\n${kind} ${figure} at CPU/${cpu}: P = Playwright as before, F = Playwright with the flag (the reload's), B = bare (the cold loads')`);
const diff = (a: number[], b: number[], label: string) => {
  const c = compare(a, b);
  return `${label} ${Math.round(c.difference)} ms (95% interval ${Math.round(c.low)} to ${Math.round(c.high)}${c.clear ? '' : ', no clear difference'})`;
};
for (const [brand, s] of Object.entries(samples)) {
  const m = (xs: number[]) => Math.round(median(xs.filter(Number.isFinite)));
  console.log(`${brand}: P ${m(s.P)}, F ${m(s.F)}, B ${m(s.B)} ms; ${diff(s.P, s.F, 'F − P')}; ${diff(s.P, s.B, 'B − P')}; ${diff(s.F, s.B, 'B − F')}`);
}
