/**
 * API throughput and latency: a bare Fastify hello-world and our endpoints, each driven by the load generator in its
 * own process on the other core. Rounds alternate the targets so drift from other load on the machine hits them alike;
 * the round with the median requests/s is reported.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, PINNING, pinned, ROOT, type Stack, signIn, spawnGroup, stopGroup, waitForUrl } from './lib';
import { type LoadResult, type LoadSpec, runLoad } from './load';
import { listeningPid } from './proc-cpu';

export interface ApiOptions {
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
}

export interface Target {
  name: string;
  spec: Omit<LoadSpec, 'connections' | 'duration' | 'warmup' | 'serverPid'>;
}

export interface TargetResult extends LoadResult {
  name: string;
  engine: string;
  rounds: number;
  roundsRps: number[];
  /** Each round's CPU per request of the target's server process (null where /proc cannot tell). */
  roundsCpuUs: (number | null)[];
  /** A target measured on several processes (the bare hello-world): each process's requests/s and CPU per request. */
  processesRps?: number[];
  processesCpuUs?: (number | null)[];
}

/** The figure whose requests/s is nearest the median of all: the one that stands for several rounds or processes. */
function nearestMedian<T extends { rps: number }>(all: readonly T[]): T {
  const mid = median(all.map((x) => x.rps));
  return all.reduce((best, x) => (Math.abs(x.rps - mid) < Math.abs(best.rps - mid) ? x : best), all[0] as T);
}

/** Each target loaded in turn, round after round; per target, the round with the median requests/s and the median CPU. */
export async function measureTargets(targets: Target[], engine: string, o: ApiOptions): Promise<TargetResult[]> {
  const byTarget = new Map<string, LoadResult[]>();
  // The process behind each target, for its CPU per request (null where /proc cannot tell).
  const pids = new Map(targets.map((t) => [t.name, listeningPid(Number(new URL(t.spec.url).port))]));
  for (let r = 0; r < o.rounds; r++) {
    for (const t of targets) {
      const serverPid = pids.get(t.name) ?? undefined;
      const res = await runLoad(
        { ...t.spec, connections: o.connections, duration: o.duration, warmup: o.warmup, serverPid },
        { cpu: PINNING?.client ?? null, cwd: ROOT },
      );
      process.stderr.write(
        `  api ${engine} ${t.name} round ${r + 1}: ${res.rps} req/s, p50 ${res.p50} ms, p99 ${res.p99} ms, errors ${res.errors + res.non2xx}, server CPU ${res.cpuUsPerRequest ?? '?'} µs/request\n`,
      );
      byTarget.set(t.name, [...(byTarget.get(t.name) ?? []), res]);
    }
  }
  return targets.map((t) => {
    const all = byTarget.get(t.name) ?? [];
    const chosen = nearestMedian(all);
    const cpu = all.map((x) => x.cpuUsPerRequest).filter((x): x is number => x !== null);
    return {
      ...chosen,
      // The median over the rounds, like requests/s (not necessarily the same round's).
      cpuUsPerRequest: cpu.length ? median(cpu) : null,
      non2xx: all.reduce((a, x) => a + x.non2xx, 0),
      errors: all.reduce((a, x) => a + x.errors, 0),
      name: t.name,
      engine,
      rounds: all.length,
      roundsRps: all.map((x) => x.rps),
      roundsCpuUs: all.map((x) => x.cpuUsPerRequest),
    };
  });
}

export const HELLO = 'fastify hello-world';
export const HELLO_WITH_HEADERS = 'fastify hello-world + API headers';

export interface Hello {
  url: string;
  path: string;
  stop(): Promise<void>;
}

/**
 * The Fastify baseline on the server core: bare (the budget's baseline), or with the headers every API answer carries
 * (scripts/bench/hello.ts --api-headers), which shows how much of the gap those headers alone take.
 */
export async function startHello(port: number, apiHeaders = false): Promise<Hello> {
  const args = [process.execPath, '--import', 'tsx', 'scripts/bench/hello.ts', String(port), ...(apiHeaders ? ['--api-headers'] : [])];
  const child = spawnGroup(pinned(PINNING?.server, args), process.env, apiHeaders ? 'hello+headers' : 'hello');
  const path = apiHeaders ? '/health' : '/';
  await waitForUrl(`http://127.0.0.1:${port}${path}`, child, 60);
  return { url: `http://127.0.0.1:${port}`, path, stop: () => stopGroup(child) };
}

/**
 * Several bare hello-world processes, on ports port, port + 2, port + 4 ...: one process's figure is partly luck
 * (two identical processes on this VM differ by up to a fifth in CPU per request, steadily, round after round; see
 * docs/performance-log.md, ninth pass), so the baseline is the median process of several.
 */
export async function startHellos(port: number, count: number): Promise<Hello[]> {
  const started: Hello[] = [];
  try {
    for (let i = 0; i < count; i++) started.push(await startHello(port + 2 * i));
  } catch (e) {
    await Promise.all(started.map((h) => h.stop()));
    throw e;
  }
  return started;
}

/** The figure of one target measured on several processes: the process with the median requests/s stands for all. */
export function medianProcess(name: string, perProcess: TargetResult[]): TargetResult {
  return {
    ...nearestMedian(perProcess),
    name,
    non2xx: perProcess.reduce((a, x) => a + x.non2xx, 0),
    errors: perProcess.reduce((a, x) => a + x.errors, 0),
    processesRps: perProcess.map((x) => x.rps),
    processesCpuUs: perProcess.map((x) => x.cpuUsPerRequest),
  };
}

export async function benchApi(stack: Stack, hellos: Hello[], helloWithHeaders: Hello | null, o: ApiOptions): Promise<TargetResult[]> {
  const host = (brand: string) => `${brand}.localhost:${stack.port}`;
  const token = await signIn(stack.url, 'card', 'card.careguard');
  const helloName = (i: number) => (hellos.length === 1 ? HELLO : `${HELLO} (process ${i + 1})`);
  const targets: Target[] = [
    ...hellos.map((h, i) => ({ name: helloName(i), spec: { url: h.url, path: h.path } })),
    ...(helloWithHeaders ? [{ name: HELLO_WITH_HEADERS, spec: { url: helloWithHeaders.url, path: helloWithHeaders.path } }] : []),
    { name: 'GET /health', spec: { url: stack.url, path: '/health', headers: { host: host('card') } } },
    {
      name: 'GET /api/account/user/identity',
      spec: { url: stack.url, path: '/api/account/user/identity', headers: { host: host('card'), authorization: `Bearer ${token.access_token}` } },
    },
  ];
  const measured = await measureTargets(targets, stack.engine, o);
  if (hellos.length === 1) return measured;
  const perHello = hellos.map((_, i) => measured.find((r) => r.name === helloName(i)) as TargetResult);
  return [medianProcess(HELLO, perHello), ...measured.filter((r) => !perHello.includes(r))];
}

/**
 * A row another bench returns. Known keys (and scripts/bench/claims.ts's table-line keys) become req/s, p50, p99 and
 * errors; every other numeric field is kept and shown as it is (e.g. the grid bench's rowsInDom, longestTaskMs).
 */
export interface FeatureRow {
  name: string;
  engine?: string;
  rps: number | null;
  p50: number | null;
  p99: number | null;
  errors: number | null;
  other: Record<string, number>;
  budget?: { rps?: number; p99?: number };
}

function normalise(x: Record<string, unknown>, fallbackName: string, engine: string): FeatureRow {
  const used = new Set<string>();
  const num = (...keys: string[]) => {
    for (const k of keys)
      if (typeof x[k] === 'number') {
        used.add(k);
        return x[k] as number;
      }
    return null;
  };
  const rps = num('rps', 'requests/s', 'requestsPerSecond');
  const p50 = num('p50', 'p50 ms', 'p50Ms');
  const p99 = num('p99', 'p99 ms', 'p99Ms');
  const errs = [num('errors'), num('non2xx'), num('timeouts')].filter((v): v is number => v !== null);
  const other = Object.fromEntries(Object.entries(x).filter(([k, v]) => typeof v === 'number' && !used.has(k))) as Record<string, number>;
  return {
    name: String(x.name ?? x.endpoint ?? x.kind ?? fallbackName),
    engine: String(x.engine ?? engine),
    rps,
    p50,
    p99,
    errors: errs.length ? errs.reduce((a, b) => a + b, 0) : null,
    other,
    budget: (x.budget as FeatureRow['budget']) ?? undefined,
  };
}

/**
 * Calls `runClaimsBench` of scripts/bench/claims.ts (or `runGridBench` of grid.ts) when that file exists and exports it.
 * The file is checked for the export before it is imported, since a script without it may run its own CLI on import.
 * Called as fn({ engine, baseUrl, databaseUrl, duration, connections, warmup, loadCpu, serverCpu }); it may return a row
 * or rows with name, rps (or 'requests/s'), p50, p99 (or 'p50 ms', 'p99 ms'), errors, and optionally budget {rps, p99}.
 */
export async function featureBench(
  file: 'claims' | 'grid',
  fn: 'runClaimsBench' | 'runGridBench',
  args: { engine: 'pglite' | 'postgres'; baseUrl: string; databaseUrl?: string; duration: number; connections: number; warmup: number },
): Promise<{ status: 'absent' | 'ran' | 'failed'; rows: FeatureRow[]; message?: string }> {
  const path = join(ROOT, 'scripts', 'bench', `${file}.ts`);
  if (!existsSync(path)) return { status: 'absent', rows: [], message: `scripts/bench/${file}.ts does not exist yet` };
  const source = readFileSync(path, 'utf8');
  if (!new RegExp(`export\\s+(async\\s+)?(function|const|let)\\s+${fn}\\b|export\\s*\\{[^}]*\\b${fn}\\b`).test(source)) {
    return { status: 'absent', rows: [], message: `scripts/bench/${file}.ts does not export ${fn} yet` };
  }
  try {
    const mod = (await import(path)) as Record<string, unknown>;
    const run = mod[fn] as ((a: unknown) => Promise<unknown>) | undefined;
    if (typeof run !== 'function') return { status: 'absent', rows: [], message: `${fn} is not a function` };
    const out = await run({ ...args, loadCpu: PINNING?.client ?? null, serverCpu: PINNING?.server ?? null });
    const list = (Array.isArray(out) ? out : [out]).filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
    return { status: 'ran', rows: list.map((x, i) => normalise(x, `${file} ${i + 1}`, args.engine)) };
  } catch (e) {
    return { status: 'failed', rows: [], message: (e as Error).message };
  }
}
