/** Shared pieces of the benchmarks: processes, pinning, the machine, the result rows. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_GATEWAY_ENV } from '@portal/server/kernel';
import { DEMO_PASSWORD } from '../lib/demo';

export const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');

/**
 * How the benchmarks run the API, as production runs it: NODE_ENV=production (no development check of every JSON answer
 * against its contract) with the card gateway's keys set, as a deployment must set them (production refuses to start
 * without); here the sandbox merchant's, since the benchmarks' gateway is the sandbox.
 */
export const PRODUCTION_ENV: NodeJS.ProcessEnv = { NODE_ENV: 'production', ...SANDBOX_GATEWAY_ENV };
/** The browser every page figure is taken in: Debian's, or `BENCH_CHROMIUM` to compare another build of Chromium. */
export const CHROMIUM = process.env.BENCH_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export { DEMO_PASSWORD };
/** The member (or, on staff, support) demo user each site's signed-in figures are taken with. */
export const DEMO_USER: Record<string, string> = {
  finance: 'finance.careguardfinance',
  assist: 'assist.careassist',
  quote: 'quote.carequote',
  card: 'card.careguard',
  staff: 'staff.caresupport',
};

/** One figure of the report. A figure with a budget passes or fails; one without is information. */
export interface Row {
  part: 'bundle' | 'page' | 'memory' | 'api' | 'claims' | 'grid' | 'workload';
  name: string;
  value: number | null;
  unit: string;
  budget?: { op: '<=' | '<' | '>=' | '='; limit: number; label?: string };
  pass?: boolean;
  note?: string;
}

export function judge(row: Row): Row {
  if (!row.budget) return row;
  const v = row.value;
  const { op, limit } = row.budget;
  const pass = v !== null && Number.isFinite(v) && (op === '<=' ? v <= limit : op === '<' ? v < limit : op === '>=' ? v >= limit : v === limit);
  return { ...row, pass };
}

/** Two cores or more and taskset: the server side (API, database, hello-world) on core 0, the load generator on core 1. */
export const PINNING = (() => {
  const n = availableParallelism();
  let taskset = false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    taskset = true;
  } catch {}
  return taskset && n >= 2 ? { server: 0, client: 1 } : null;
})();

export const pinned = (cpu: number | undefined, cmd: string[]): string[] => (PINNING && cpu !== undefined ? ['taskset', '-c', String(cpu), ...cmd] : cmd);

export function machine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  const meminfo = existsSync('/proc/meminfo') ? readFileSync('/proc/meminfo', 'utf8') : '';
  const memKb = Number(/MemTotal:\s*(\d+)/.exec(meminfo)?.[1] ?? totalmem() / 1024);
  let chromium = 'unknown';
  try {
    chromium = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {}
  return {
    nproc: cpus().length,
    cpusAllowed: availableParallelism(),
    cpu: model,
    memoryGiB: Math.round((memKb / 1024 / 1024) * 10) / 10,
    node: process.version,
    chromium,
    kernel: existsSync('/proc/version') ? readFileSync('/proc/version', 'utf8').split(' ').slice(0, 3).join(' ') : 'unknown',
    pinning: PINNING
      ? `server side on core ${PINNING.server}, load generator on core ${PINNING.client} (taskset); the browser unpinned, at nice 10`
      : 'none (taskset or a second core missing)',
  };
}

/** The 1-minute load average: above ~1 before a part starts, someone else is using the machine. */
export const load1 = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A command-line option's value (`--name value`), or the fallback when it is not given. */
export function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

export async function waitForUrl(url: string, child: ChildProcess | null, seconds: number, headers: Record<string, string> = {}) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process serving it exited with ${child.exitCode}`);
    try {
      const r = await fetch(url, { headers });
      if (r.ok) return;
    } catch {}
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

/** A child in its own process group, so stopping it stops its children too. */
export function spawnGroup(cmd: string[], env: NodeJS.ProcessEnv, logPrefix: string): ChildProcess {
  const child = spawn(cmd[0] as string, cmd.slice(1), { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const relay = (d: Buffer) => {
    for (const line of d.toString().split('\n')) if (line.trim()) process.stderr.write(`  [${logPrefix}] ${line}\n`);
  };
  child.stdout?.on('data', relay);
  child.stderr?.on('data', relay);
  return child;
}

export async function stopGroup(child: ChildProcess) {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  const timeout = sleep(5000).then(() => 'timeout');
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    await exited;
  }
}

export interface Stack {
  url: string;
  port: number;
  engine: 'pglite' | 'postgres';
  stop(): Promise<void>;
}

/**
 * The seeded API with the brand sites and the sandbox (scripts/e2e-server.ts) on the server core, in a temporary
 * data directory that is removed afterwards. LOG_LEVEL=warn, NODE_ENV=production.
 */
export async function startStack(opts: { port: number; sandboxPort: number; databaseUrl?: string }): Promise<Stack> {
  const tmp = mkdtempSync(join(tmpdir(), 'portal-bench-'));
  // As production runs it: NODE_ENV=production leaves out the development check of every JSON answer against its
  // contract (config.checkResponses), which the tests, the end-to-end server and the demo keep on.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    E2E_PORT: String(opts.port),
    E2E_SANDBOX_PORT: String(opts.sandboxPort),
    TMPDIR: tmp,
    LOG_LEVEL: 'warn',
    ...PRODUCTION_ENV,
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  const child = spawnGroup(pinned(PINNING?.server, [process.execPath, '--import', 'tsx', 'scripts/e2e-server.ts']), env, 'server');
  const url = `http://127.0.0.1:${opts.port}`;
  const stop = async () => {
    await stopGroup(child);
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await waitForUrl(`${url}/health`, child, 240);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, port: opts.port, engine: opts.databaseUrl ? 'postgres' : 'pglite', stop };
}

/** A throwaway PostgreSQL server (scripts/lib/postgres.sh), its processes on the server core. */
export async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const script = 'source scripts/lib/postgres.sh && pg_temp_start >&2 && printf "%s\\n%s\\n%s\\n" "$PG_TEMP_URL" "$PG_TEMP_DIR" "$PG_TEMP_BIN"';
  const out = execFileSync(pinned(PINNING?.server, ['bash'])[0] as string, [...pinned(PINNING?.server, ['bash']).slice(1), '-c', script], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [url, dir, bin] = out.trim().split('\n');
  if (!url || !dir || !bin) throw new Error(`PostgreSQL did not start: ${out}`);
  return {
    url,
    stop: async () => {
      execFileSync('bash', ['-c', 'source scripts/lib/postgres.sh && pg_temp_stop'], {
        cwd: ROOT,
        env: { ...process.env, PG_TEMP_DIR: dir, PG_TEMP_BIN: bin },
        stdio: 'inherit',
      });
    },
  };
}

/**
 * A PostgreSQL server that keeps its data in `dir` (created on first use), on `port`, its processes on the server
 * core (or `cpu`; null: unpinned): for benches whose seed is worth keeping between runs (scripts/bench/workload.ts). Settings as the throwaway
 * server's (no fsync: bench data), with room for several API processes' pools. Stopping it keeps the data.
 */
export async function startPostgresAt(
  dir: string,
  port: number,
  cpu: number | null = PINNING?.server ?? null,
): Promise<{ url: string; stop(): Promise<void> }> {
  const script = `source scripts/lib/postgres.sh
set -e
bin=$(pg_bin_dir)
[ -n "$bin" ] || { echo "PostgreSQL binaries not found" >&2; exit 1; }
as=()
mkdir -p "$PG_DIR"
if [ "$(id -u)" = "0" ]; then chown postgres "$PG_DIR"; as=(runuser -u postgres --); fi
if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then "\${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -U portal --auth=trust >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; exit 1; }; fi
# Left running by an interrupted run: use it as it is.
if "\${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; then echo "$bin"; exit 0; fi
"\${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c log_autovacuum_min_duration=0 -c log_checkpoints=on -c log_min_duration_statement=100" start >/dev/null || { tail -n 20 "$PG_DIR/server.log" >&2; exit 1; }
echo "$bin"`;
  const cmd = pinned(cpu ?? undefined, ['bash', '-c', script]);
  const bin = execFileSync(cmd[0] as string, cmd.slice(1), {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, PG_DIR: dir, PG_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return {
    url: `postgres://portal@127.0.0.1:${port}/postgres`,
    stop: async () => {
      execFileSync(
        'bash',
        ['-c', `as=(); [ "$(id -u)" = "0" ] && as=(runuser -u postgres --); "\${as[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null`],
        {
          cwd: ROOT,
          env: { ...process.env, PG_DIR: dir, PG_BIN: bin },
          stdio: 'inherit',
        },
      );
    },
  };
}

/**
 * POST /token with the password grant on a brand's host. Sessions are bound to the brand site they sign in on,
 * so the Host header must name the brand: node:http sends it as given (fetch drops a Host header).
 */
export function signIn(base: string, brandHost: string, userName: string) {
  const url = new URL(`${base}/token`);
  const body = new URLSearchParams({ grant_type: 'password', UserName: userName, Password: DEMO_PASSWORD }).toString();
  return new Promise<{ access_token: string; refresh_token: string; expires_in: number; form_token: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), host: `${brandHost}.localhost:${url.port}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`sign-in of ${userName} on ${brandHost}: ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export const median = (xs: number[]): number => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
