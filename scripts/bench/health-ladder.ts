/**
 * Where /health's cost beyond a bare Fastify goes, step by step, all in one API process. A diagnostic beside the API
 * bench, not a budget. The API bench compares /health with a hello-world in another process; two processes on this VM
 * differ by up to a fifth in CPU per request (ninth pass), so this puts every step in the same process and measures
 * them in turn, round after round, as the API bench measures its targets (`measureTargets`):
 *
 * - `route`: a plain Fastify route of the API app, answering `{"hello":"world"}`: the API's headers (its onRequest hook),
 *   logger and request id, and no kernel code of its own;
 * - `envelope`: the same answering /health's answer inside the spec's envelope (`ok(...)`), as /health sends it;
 * - `handler`: the kernel's /health handler called directly from a plain route, its answer in the envelope;
 * - `GET /health`: the kernel's route, through the route guard every API route runs (brand, access, text checks,
 *   contract, context, drain).
 *
 * The bare hello-world (scripts/bench/hello.ts, its own process) is measured in the same rounds, for the budget's
 * baseline, and so is the hello-world with the API's headers (`hello.ts --api-headers`, its own process too): the
 * `route` step runs the same route code in the API's process, so what it adds to that one is what the API's process
 * (its logger, router, database and size) costs a request beyond the headers.
 *
 *   node --import tsx scripts/bench/health-ladder.ts [--rounds 6] [--duration 5] [--port 18800] [--postgres]
 *
 * The server (scripts/bench/health-ladder-server.ts: the API and the ladder's routes) is compiled as `pnpm build`
 * compiles the API, into a temporary folder, and runs as the bench runs the API: on the server core, with
 * `--enable-source-maps`, NODE_ENV=production, LOG_LEVEL=warn and jobs worked, on an embedded PGlite database in the
 * same folder (with `--postgres`: on a throwaway PostgreSQL server started for the run, its processes on the server
 * core, so the two engines' ladders can be set side by side). (Run from source under tsx instead, one run cost the
 * plain route 34 µs and /health 50.) It is measured once at rest, after two passes over every route that are not
 * counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedPluginIds } from '@portal/brands/plugins';
import { buildServer } from '../../apps/server/build';
import { type Hello, measureTargets, startHello, type Target } from './api';
import { median, option, PINNING, PRODUCTION_ENV, pinned, ROOT, sleep, spawnGroup, startPostgres, stopGroup, waitForUrl } from './lib';
import { listeningPid, processCpuMs } from './proc-cpu';

export const LADDER = [
  { step: 'route', path: '/api/ladder/route', what: 'a plain route of the API app (API headers, logger, request id)' },
  { step: 'envelope', path: '/api/ladder/envelope', what: "+ /health's answer in the spec's envelope" },
  { step: 'handler', path: '/api/ladder/handler', what: "+ the kernel's /health handler, called directly" },
  { step: 'GET /health', path: '/health', what: "+ the kernel's route guard (the route as the API serves it)" },
] as const;

async function main() {
  const rounds = Number(option('rounds', '6'));
  const duration = Number(option('duration', '5'));
  const port = Number(option('port', '18800'));
  const engine = process.argv.includes('--postgres') ? 'postgres' : 'pglite';
  const data = mkdtempSync(join(tmpdir(), 'portal-ladder-'));
  const hellos: Hello[] = [];
  let server: ReturnType<typeof spawnGroup> | null = null;
  let postgres: Awaited<ReturnType<typeof startPostgres>> | null = null;
  try {
    const dist = await buildServer(installedPluginIds(), join(data, 'dist'), { ladder: join(ROOT, 'scripts', 'bench', 'health-ladder-server.ts') });
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: data, PORT: String(port), LOG_LEVEL: 'warn', ...PRODUCTION_ENV, JOBS: 'on' };
    delete env.DATABASE_URL;
    if (engine === 'postgres') {
      postgres = await startPostgres();
      env.DATABASE_URL = postgres.url;
    }
    console.log(`the API on ${engine}`);
    server = spawnGroup(pinned(PINNING?.server, [process.execPath, '--enable-source-maps', join(dist, 'ladder.js')]), env, 'server');
    hellos.push(await startHello(port + 10), await startHello(port + 12, true));
    const [hello, withHeaders] = hellos as [Hello, Hello];
    await waitForUrl(`http://127.0.0.1:${port}/health`, server, 240);
    const pid = listeningPid(port) ?? undefined;
    if (pid !== undefined) {
      const settled = await settle(pid);
      console.log(`server at rest after ${settled.seconds} s (${settled.msPerSecond} ms of CPU a second)`);
    }
    const host = `card.localhost:${port}`;
    const targets: Target[] = [
      { name: 'bare hello-world', spec: { url: hello.url, path: hello.path } },
      { name: 'hello-world + API headers', spec: { url: withHeaders.url, path: withHeaders.path } },
      ...LADDER.map((l) => ({ name: l.step, spec: { url: `http://127.0.0.1:${port}`, path: l.path, headers: { host } } })),
    ];
    const options = { duration, warmup: 1, connections: 16 };
    // Two first rounds warm every route (the JIT's tiers); they are not counted.
    await measureTargets(targets, engine, { ...options, rounds: 2 });
    const measured = await measureTargets(targets, engine, { ...options, rounds });
    const failed = measured.filter((r) => r.errors + r.non2xx > 0);
    if (failed.length > 0) throw new Error(`failed requests: ${failed.map((r) => `${r.name} ${r.errors + r.non2xx}`).join(', ')}`);
    console.log(ladderTable(measured.map((r) => ({ step: r.name, cpuUs: r.roundsCpuUs.filter((x): x is number => x !== null) }))));
    for (const l of LADDER) console.log(`  ${l.step}: ${l.what}`);
  } finally {
    await Promise.all(hellos.map((h) => h.stop()));
    if (server) await stopGroup(server);
    if (postgres) await postgres.stop();
    rmSync(data, { recursive: true, force: true });
  }
}

/**
 * Waits until a freshly started server is at rest: its CPU under 20 ms a second over a 2 s window (a fresh PGlite
 * database and the job queue's first rounds keep it busy for a while after it answers), at most `maxSeconds`.
 */
async function settle(pid: number, maxSeconds = 180): Promise<{ seconds: number; msPerSecond: number }> {
  const started = Date.now();
  for (;;) {
    const before = processCpuMs(pid) ?? 0;
    await sleep(2000);
    const msPerSecond = Math.round(((processCpuMs(pid) ?? 0) - before) / 2);
    const seconds = Math.round((Date.now() - started) / 1000);
    if (msPerSecond < 20 || seconds >= maxSeconds) return { seconds, msPerSecond };
  }
}

/**
 * The ladder as a table: each step's median CPU per request, what it adds to the step before it (the first step: to the
 * bare hello-world), and the bare hello-world's CPU per request as a share of the step's.
 */
export function ladderTable(steps: { step: string; cpuUs: number[] }[]): string {
  const bare = steps.find((s) => s.step === 'bare hello-world');
  const bareUs = bare && bare.cpuUs.length > 0 ? median(bare.cpuUs) : null;
  const lines = ['step                      CPU µs/req (median)  added  bare hello-world as a share of it  rounds'];
  let previous: number | null = bareUs;
  for (const s of steps) {
    if (s.cpuUs.length === 0) {
      lines.push(`${s.step.padEnd(26)}${'-'.padStart(19)}`);
      continue;
    }
    const us = median(s.cpuUs);
    const added = s === bare || previous === null ? '' : `${us - previous >= 0 ? '+' : ''}${(us - previous).toFixed(1)}`;
    const share = bareUs === null ? '' : `${Math.round((bareUs / us) * 100)}%`;
    lines.push(`${s.step.padEnd(26)}${us.toFixed(1).padStart(19)}${added.padStart(7)}${share.padStart(35)}  ${s.cpuUs.join(' / ')}`);
    if (s !== bare) previous = us;
  }
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('health-ladder.ts')) await main();
