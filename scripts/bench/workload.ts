/**
 * Mixed member workload on PostgreSQL: simulated members (distinct seeded member logins) sign in, load their
 * dashboard, search their bills, open one, page their ledger, write a note, refresh their token and sign out, with
 * think time between steps (scripts/bench/workload-members.ts has the calls). Measured at several member counts and
 * with 1 and 2 API processes (WORKERS=N); prints p50/p99/errors per step, offered and achieved requests/s, and the
 * 2-against-1 ratios. Budget: p99 < 200 ms for every step at 200 members, no errors.
 *
 *   node --import tsx scripts/bench/workload.ts [--members 50,200,500] [--duration 60] [--warmup S] [--think-ms 5000] [--arrival cycle|think]
 *       [--workers 1,2] [--port 8780] [--sandbox-port 8790] [--pg-port 5481] [--pin auto|on|off] [--scale 1000] [--member-count 10000]
 *       [--timeout-ms 10000] [--json FILE] [--profile DIR (CPU profiles of the API processes)]
 *       [--hash-cost KIB (diagnostic: the logins' Argon2id memory instead of the server's 19456 KiB)]
 *
 * Data: a PostgreSQL server with its data in .data/bench-workload-pg-<scale>-<members> (kept: a later run of the same
 * size reuses the seed): scripts/seed.ts at --scale 1000 (a million claims, each plugin's seed: ledgers, notes) over --member-count
 * generated members (10,000; inserted in seed.ts's own format before it runs), and a login for each generated member
 * (`wl.<member number>`, the demo password). Members alternate between the finance and the card brand.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledApiArgs } from '../../apps/server/compiled';
import { type CpuSpan, cpuBetween, startCpuTimeline } from './cpu-timeline';
import { DEMO_PASSWORD, load1, machine, PINNING, PRODUCTION_ENV, pinned, ROOT, spawnGroup, startPostgresAt, stopGroup, waitForUrl } from './lib';
import { parseStat } from './proc-cpu';
import { type Arrival, arrivalSpreadMs, LATE_MS, type Login, type MembersResult, type MembersSpec, planShapes, STEP_ORDER } from './workload-members';
import {
  aggregateSteps,
  type Comparison,
  compareWorkers,
  errorCauses,
  findStalls,
  type LevelResult,
  offeredLoad,
  parseList,
  STALL_FACTOR,
  STALL_MIN_MS,
  type Stall,
} from './workload-stats';

export const WORKLOAD_BUDGET = { members: 200, p99Ms: 200, errors: 0 } as const;
/**
 * A member's pause after each step, on average (each pause is 0.5-1.5 times this): the time a person reads a page
 * before the next click. With 5 s a member goes through the eight steps, sign-in included, about every 40 s: still
 * far more sign-ins than real members make (a session lasts up to 30 idle minutes), and each sign-in is a deliberate
 * password hash (Argon2id) of tens of milliseconds of CPU. `--think-ms 1000` is the hurried variant (docs/PERFORMANCE.md shows
 * both).
 */
export const DEFAULT_THINK_MS = 5000;
const TOKEN_SECRET = 'bench-workload-secret-not-for-production';
/** platform/server/src/auth/password.ts: Argon2id with 19 MiB (the memory, in KiB, is what --hash-cost changes). */
const SERVER_HASH_COST = 19456;
const SEED_KEY = 'workload';
/** Seconds of warm-up after the last member arrives (caches, JIT, the pools' connections). */
const WARM_AFTER_ARRIVALS = 15;

export interface WorkloadOptions {
  members: number[];
  workers: number[];
  duration: number;
  /** Seconds before each level's window: the arrivals' spread and 15 s more by default (every member in, caches warm). */
  warmup: number;
  thinkMs: number;
  /** How members arrive (workload-members.ts Arrival): over one cycle (default) or one think time (the earlier method). */
  arrival: Arrival;
  port: number;
  sandboxPort: number;
  pgPort: number;
  /** auto: pinned (server side core 0, load generator core 1) unless a run asks for more API processes than 1. */
  pin: 'auto' | 'on' | 'off';
  scale: number;
  memberCount: number;
  timeoutMs: number;
  /** A directory for CPU profiles of the API processes (node --cpu-prof), written when each API stops. */
  profile?: string;
  /**
   * Argon2id memory (KiB) of the bench logins' password hashes: 19456 (the server's own, the default) or lower, a
   * diagnostic that shows what sign-in's hashing costs (the server verifies with the cost stored in the hash; at another
   * cost it hashes again at its own at the first sign-in, so the diagnostic also shows that). Reported beside the figures.
   */
  hashCost: number;
}

export interface WorkloadLevel extends LevelResult {
  offeredStepsPerSecond: number;
  stepsPerSecond: number;
  errors: number;
  errorCauses: { cause: string; count: number }[];
  load1Before: number;
  load1After: number;
  apiProcesses: number;
  activeAtEnd: number;
  /**
   * CPU seconds per second over the level (warm-up included) of the API processes, PostgreSQL and the members'
   * process; and the seconds per second the API's threads waited, runnable, for a core (summed over its threads).
   */
  cpu: { api: number; postgres: number; members: number; apiRunQueueWait: number };
  byBrand: Record<string, ReturnType<typeof aggregateSteps>>;
  /**
   * The level's stalls, slowest first (at most STALLS_SHOWN): slow steps that overlapped, with the sign-ins that
   * overlapped them, the members' process's own lateness, and what the API, PostgreSQL and the members' process ran and
   * waited for a core over the stall (null when the CPU timeline does not cover it).
   */
  stalls: (Stall & { clock: string; cpu: CpuSpan | null })[];
  /** Times the members' process ran its timers late (over LATE_MS), and the most it was late (ms). */
  membersLate: { count: number; max: number };
}

export interface WorkloadReport {
  options: WorkloadOptions;
  placement: string;
  /** Settings of the API processes passed through from the environment (the server's defaults otherwise). */
  serverEnv: Record<string, string>;
  seed: { reused: boolean; seconds: number; claims: number; members: number; logins: number; ledgerTransactions: number };
  levels: WorkloadLevel[];
  comparisons: Comparison[];
}

const log = (m: string) => process.stderr.write(`${m}\n`);
/** Server settings worth naming beside the figures when set (the API inherits this process's environment). */
const PASSED_ENV = ['DATABASE_POOL_SIZE', 'UV_THREADPOOL_SIZE', 'ACCESS_TOKEN_TTL'];

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
}
const num = (argv: string[], name: string, fallback: number) => {
  const v = arg(argv, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number, got ${v}`);
  return n;
};

export function parseOptions(argv: string[], defaults: Partial<WorkloadOptions> = {}): WorkloadOptions {
  const pin = (arg(argv, 'pin') ?? defaults.pin ?? 'auto') as WorkloadOptions['pin'];
  if (!['auto', 'on', 'off'].includes(pin)) throw new Error(`--pin takes auto, on or off, got ${pin}`);
  const arrival = (arg(argv, 'arrival') ?? defaults.arrival ?? 'cycle') as Arrival;
  if (!['cycle', 'think'].includes(arrival)) throw new Error(`--arrival takes cycle or think, got ${arrival}`);
  const thinkMs = num(argv, 'think-ms', defaults.thinkMs ?? DEFAULT_THINK_MS);
  const arrivedBy = Math.ceil(arrivalSpreadMs(arrival, thinkMs) / 1000);
  const warmup = num(argv, 'warmup', defaults.warmup ?? arrivedBy + WARM_AFTER_ARRIVALS);
  // A window that opens before every member has arrived measures fewer members than it names.
  if (warmup < arrivedBy) throw new Error(`--warmup ${warmup} s ends before the last member arrives (${arrivedBy} s with --arrival ${arrival})`);
  return {
    members: parseList(arg(argv, 'members'), defaults.members ?? [50, 200, 500]),
    workers: parseList(arg(argv, 'workers'), defaults.workers ?? [1, 2]),
    duration: num(argv, 'duration', defaults.duration ?? 60),
    warmup,
    thinkMs,
    arrival,
    port: num(argv, 'port', defaults.port ?? 8780),
    sandboxPort: num(argv, 'sandbox-port', defaults.sandboxPort ?? 8790),
    pgPort: num(argv, 'pg-port', defaults.pgPort ?? 5481),
    pin,
    scale: num(argv, 'scale', defaults.scale ?? 1000),
    memberCount: num(argv, 'member-count', defaults.memberCount ?? 10_000),
    timeoutMs: num(argv, 'timeout-ms', defaults.timeoutMs ?? 10_000),
    profile: arg(argv, 'profile') ?? defaults.profile,
    hashCost: num(argv, 'hash-cost', defaults.hashCost ?? SERVER_HASH_COST),
  };
}

interface Prepared {
  reused: boolean;
  seconds: number;
  claims: number;
  members: number;
  logins: number;
  ledgerTransactions: number;
  /** Finance and card logins, alternating. */
  sample: Login[];
}

/**
 * Child step (DATABASE_URL set): seed or reuse. Generated members first (seed.ts's format: G + 8 digits, brands in
 * turn finance, card, assist, quote), so seed.ts at `scale` spreads its claims and the plugins their ledgers over all
 * of them; then a login per generated member. A row in bench_workload_seed marks a finished seed of that size.
 */
async function prepare(scale: number, memberCount: number, sampleSize: number, hashCost: number, out: string) {
  const started = Date.now();
  const { createServer } = await import('@portal/app-server/server');
  const { hashPassword, PASSWORD_COST } = await import('@portal/server/kernel');
  const { mulberry32, personName } = await import('../lib/random');
  const server = await createServer({ tokenSecret: TOKEN_SECRET }, { logger: false });
  const sql = server.database.sql;
  await sql.exec(
    'CREATE TABLE IF NOT EXISTS bench_workload_seed (key text PRIMARY KEY, scale int NOT NULL, members int NOT NULL, done_at timestamptz NOT NULL)',
  );
  const done = (await sql.query<{ scale: number; members: number }>('SELECT scale, members FROM bench_workload_seed WHERE key = $1', [SEED_KEY]))[0];
  const reused = done?.scale === scale && done.members === memberCount;
  if (done && !reused) throw new Error(`this database was seeded for scale ${done.scale} and ${done.members} members: remove its data directory to seed again`);
  if (!reused) {
    const have = (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM members WHERE member_number LIKE 'G%'"))[0]?.n ?? 0;
    const random = mulberry32(20261122);
    log(`  seed: ${Math.max(0, memberCount - have)} generated members (have ${have})`);
    for (let i = have; i < memberCount; i += 1000) {
      const values: string[] = [];
      const params: unknown[] = [];
      for (let j = i; j < Math.min(memberCount, i + 1000); j++) {
        const { first, last } = personName(random);
        const brand = (['finance', 'card', 'assist', 'quote'] as const)[j % 4] ?? 'finance';
        params.push(`G${String(j).padStart(8, '0')}`, brand, first, last, `${first}.${last}.${j}@members.example.com`.toLowerCase());
        const b = params.length - 5;
        values.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, now())`);
      }
      await sql.query(`INSERT INTO members (member_number, brand, first_name, last_name, email, approved_date) VALUES ${values.join(',')}`, params);
    }
    await server.close();
    // seed.ts: demo users, a million claims over every member, the plugins' seeds (ledgers for the card, assist and
    // finance members); its own progress lines, and every 20 s what is committed so far.
    const { seed } = await import('../seed');
    const t = Date.now();
    const pg = (await import('pg')).default;
    const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await watcher.connect();
    const beat = setInterval(() => {
      watcher
        .query<{ l: number; c: number }>('SELECT (SELECT count(*) FROM ledger_transactions)::int AS l, (SELECT count(*) FROM claims)::int AS c')
        .then((r) => log(`  seed: ${Math.round((Date.now() - t) / 1000)} s: ${r.rows[0]?.l} ledger transactions, ${r.rows[0]?.c} claims committed`))
        .catch(() => {});
    }, 20_000);
    try {
      await seed(scale, (m) => log(`  seed: ${m} (${Math.round((Date.now() - t) / 1000)} s)`));
    } finally {
      clearInterval(beat);
      await watcher.end();
    }
  } else await server.close();

  const again = await createServer({ tokenSecret: TOKEN_SECRET }, { logger: false });
  const db = again.database.sql;
  if (!reused) {
    // One hash for every bench login (hashing 10,000 passwords would take minutes and prove nothing).
    const hash = await hashPassword(DEMO_PASSWORD);
    await db.transaction(async (tx) => {
      const made = await tx.query<{ id: string }>(
        `INSERT INTO users (id, user_name, password_hash, first_name, last_name, email, brand, member_id)
         SELECT gen_random_uuid(), 'wl.' || lower(m.member_number), $1, m.first_name, m.last_name, m.email, m.brand, m.member_id
         FROM members m WHERE m.member_number LIKE 'G%' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.member_id = m.member_id)
         RETURNING id`,
        [hash],
      );
      await tx.query(
        `INSERT INTO user_roles (user_id, role)
         SELECT u.id, CASE u.brand WHEN 'finance' THEN 'CareGuardFinance' WHEN 'card' THEN 'CareGuard' WHEN 'assist' THEN 'CareAssist' ELSE 'CareQuote' END
         FROM users u WHERE u.user_name LIKE 'wl.g%' AND NOT EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id)`,
      );
      log(`  seed: ${made.length} member logins`);
    });
    await db.exec('ANALYZE');
    await db.query('INSERT INTO bench_workload_seed (key, scale, members, done_at) VALUES ($1, $2, $3, now())', [SEED_KEY, scale, memberCount]);
  }
  // The logins' hash at the cost asked for (the server's own unless --hash-cost says otherwise).
  const stored = (await db.query<{ h: string }>("SELECT password_hash AS h FROM users WHERE user_name LIKE 'wl.g%' LIMIT 1"))[0]?.h ?? '';
  const cost = { ...PASSWORD_COST, memoryCost: hashCost };
  if (!stored.startsWith(`$argon2id$v=19$m=${cost.memoryCost},t=${cost.timeCost},p=${cost.parallelism}$`)) {
    await db.query("UPDATE users SET password_hash = $1 WHERE user_name LIKE 'wl.g%'", [await hashPassword(DEMO_PASSWORD, cost)]);
    log(`  seed: member logins' password hashes now Argon2id at ${hashCost} KiB`);
  }
  const count = async (q: string) => (await db.query<{ n: number }>(q))[0]?.n ?? 0;
  const pick = (brand: string) =>
    db.query<{ user_name: string; member_id: number }>(
      `SELECT u.user_name, u.member_id FROM users u JOIN members m USING (member_id)
       WHERE u.user_name LIKE 'wl.g%' AND m.brand = $1 ORDER BY m.member_id LIMIT $2`,
      [brand, Math.ceil(sampleSize / 2)],
    );
  const [finance, card] = await Promise.all([pick('finance'), pick('card')]);
  const sample: Login[] = [];
  for (let i = 0; sample.length < sampleSize && (i < finance.length || i < card.length); i++) {
    const f = finance[i];
    const c = card[i];
    if (f) sample.push({ userName: f.user_name, brand: 'finance', memberId: f.member_id });
    if (c && sample.length < sampleSize) sample.push({ userName: c.user_name, brand: 'card', memberId: c.member_id });
  }
  const prepared: Prepared = {
    reused,
    seconds: Math.round((Date.now() - started) / 1000),
    claims: await count('SELECT count(*)::int AS n FROM claims'),
    members: await count('SELECT count(*)::int AS n FROM members'),
    logins: await count("SELECT count(*)::int AS n FROM users WHERE user_name LIKE 'wl.g%'"),
    ledgerTransactions: await count('SELECT count(*)::int AS n FROM ledger_transactions'),
    sample,
  };
  await again.close();
  writeFileSync(out, JSON.stringify(prepared));
}

const STALLS_SHOWN = 3;

function runNode(args: string[], env: NodeJS.ProcessEnv, cpu: number | undefined, onSpawn?: (pid: number | undefined) => void): Promise<void> {
  const cmd = pinned(cpu, [process.execPath, '--import', 'tsx', ...args]);
  return new Promise((resolve, reject) => {
    const c = spawn(cmd[0] as string, cmd.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
    onSpawn?.(c.pid);
    c.on('error', reject);
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.slice(0, 2).join(' ')} exited with ${code}`))));
  });
}

/**
 * `pid` and its descendants, with their command names and CPU seconds so far (user + system, from /proc), each with
 * the CPU of its children that have exited (PostgreSQL's backends and the cluster's workers come and go).
 */
function processTree(pid: number): { pid: number; comm: string; cpu: number }[] {
  const parents = new Map<number, number[]>();
  const info = new Map<number, { comm: string; cpu: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const { comm, fields: f } = parseStat(readFileSync(`/proc/${d}/stat`, 'utf8'));
      const ppid = Number(f[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(d)]);
      // utime, stime, cutime and cstime, in clock ticks of 1/100 s.
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      info.set(Number(d), { comm, cpu: ticks / 100 });
    } catch {}
  }
  const out: { pid: number; comm: string; cpu: number }[] = [];
  const walk = (p: number) => {
    const i = info.get(p);
    if (i) out.push({ pid: p, ...i });
    for (const c of parents.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}
/** The API processes under `pid` (itself and its node children): 1 without WORKERS, 1 + N with a cluster primary. */
const nodeProcessesUnder = (pid: number) => processTree(pid).filter((p) => p.comm.startsWith('node')).length;
const cpuUnder = (pid: number | undefined) => (pid === undefined ? 0 : processTree(pid).reduce((a, p) => a + p.cpu, 0));
/**
 * Seconds the threads of `pid`'s tree have spent runnable but waiting for a core (/proc/<pid>/task/<tid>/schedstat,
 * second field, ns): how much the machine's other work held them back.
 */
const runQueueWaitUnder = (pid: number | undefined) => {
  if (pid === undefined) return 0;
  let ns = 0;
  for (const p of processTree(pid)) {
    try {
      for (const t of readdirSync(`/proc/${p.pid}/task`)) ns += Number(readFileSync(`/proc/${p.pid}/task/${t}/schedstat`, 'utf8').split(' ')[1] ?? 0);
    } catch {}
  }
  return ns / 1e9;
};
const postmasterPid = (dir: string) => {
  try {
    return Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
};

export async function runWorkload(o: WorkloadOptions): Promise<WorkloadReport> {
  const maxMembers = Math.max(...o.members);
  const scaleOut = Math.max(...o.workers) > 1;
  // Pinning gives the server side one core and the load generator the other. Several API processes on one core
  // prove nothing, so with more than one API process in the run (auto) nothing is pinned, in every run alike.
  const pin = o.pin === 'on' || (o.pin === 'auto' && !scaleOut);
  const serverCpu = pin ? PINNING?.server : undefined;
  const clientCpu = pin ? PINNING?.client : undefined;
  const placement =
    pin && PINNING
      ? `server side (PostgreSQL, API, sandbox) on core ${PINNING.server}, members on core ${PINNING.client}`
      : `unpinned: every process on every core${scaleOut && o.pin === 'auto' ? ' (the run compares API process counts)' : ''}`;
  log(`workload: ${placement}`);

  const pgDir = join(ROOT, '.data', `bench-workload-pg-${o.scale}-${o.memberCount}`);
  const pg = await startPostgresAt(pgDir, o.pgPort, serverCpu ?? null);
  const tmp = mkdtempSync(join(tmpdir(), 'portal-workload-'));
  const stops: (() => Promise<void>)[] = [async () => rmSync(tmp, { recursive: true, force: true }), pg.stop];
  const stopAll = async () => {
    while (stops.length)
      await stops
        .pop()?.()
        .catch((e: unknown) => log(`cleanup: ${(e as Error).message}`));
  };
  const onSignal = () => void stopAll().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: pg.url,
      DATA_DIR: join(tmp, 'data'),
      TOKEN_SECRET,
      LOG_LEVEL: 'warn',
      SANDBOX_PORT: String(o.sandboxPort),
      SANDBOX_URL: `http://localhost:${o.sandboxPort}`,
    };
    log(`workload: preparing ${o.scale * 1000} claims, ${o.memberCount} members and their logins in ${pgDir}`);
    const t0 = Date.now();
    const out = join(tmp, 'prepared.json');
    await runNode(
      [
        'scripts/bench/workload.ts',
        '--prepare',
        '--scale',
        String(o.scale),
        '--member-count',
        String(o.memberCount),
        '--sample',
        String(maxMembers),
        '--hash-cost',
        String(o.hashCost),
        '--out',
        out,
      ],
      env,
      serverCpu,
    );
    const prepared = JSON.parse(readFileSync(out, 'utf8')) as Prepared;
    log(
      `workload: ${prepared.reused ? 'reused the earlier seed' : 'seeded'} in ${Math.round((Date.now() - t0) / 1000)} s: ${prepared.claims} claims, ${prepared.members} members, ${prepared.logins} member logins, ${prepared.ledgerTransactions} ledger transactions`,
    );
    if (prepared.sample.length < maxMembers) throw new Error(`only ${prepared.sample.length} finance and card logins for ${maxMembers} members`);

    const sandbox = spawnGroup(pinned(serverCpu, [process.execPath, '--import', 'tsx', 'apps/sandbox/src/main.ts']), env, 'sandbox');
    const stopSandbox = () => stopGroup(sandbox);
    stops.push(stopSandbox);
    await waitForUrl(`http://127.0.0.1:${o.sandboxPort}/health`, sandbox, 60);

    const levels: WorkloadLevel[] = [];
    const shapes = planShapes();
    for (const workers of o.workers) {
      const api = spawnGroup(
        pinned(serverCpu, [process.execPath, ...(o.profile ? ['--cpu-prof', `--cpu-prof-dir=${o.profile}/workers-${workers}`] : []), ...compiledApiArgs()]),
        { ...env, PORT: String(o.port), HOST: '127.0.0.1', WORKERS: String(workers), ...PRODUCTION_ENV },
        `api x${workers}`,
      );
      const stopApi = () => stopGroup(api);
      stops.push(stopApi);
      const url = `http://127.0.0.1:${o.port}`;
      await waitForUrl(`${url}/health`, api, 180);
      // Every worker listening: the cluster's primary starts the others after the first.
      const want = workers > 1 ? workers + 1 : 1;
      for (let i = 0; i < 240 && api.pid !== undefined && nodeProcessesUnder(api.pid) < want; i++) await new Promise((r) => setTimeout(r, 250));
      const apiProcesses = api.pid === undefined ? 0 : nodeProcessesUnder(api.pid);
      log(`workload: API with WORKERS=${workers} on ${url} (${apiProcesses} node processes)`);
      for (const members of o.members) {
        const spec: MembersSpec = {
          url,
          password: DEMO_PASSWORD,
          logins: prepared.sample.slice(0, members),
          thinkMs: o.thinkMs,
          warmup: o.warmup,
          arrivalMs: arrivalSpreadMs(o.arrival, o.thinkMs),
          duration: o.duration,
          timeoutMs: o.timeoutMs,
        };
        const specFile = join(tmp, `spec-${workers}-${members}.json`);
        writeFileSync(specFile, JSON.stringify(spec));
        const before = load1();
        const cpu0 = { api: cpuUnder(api.pid), pg: cpuUnder(postmasterPid(pgDir)), wait: runQueueWaitUnder(api.pid), at: performance.now() };
        log(`workload: ${members} members, ${workers} API process(es): ${o.warmup} s warm-up + ${o.duration} s measured (load average ${before})`);
        const resultFile = join(tmp, `result-${workers}-${members}.json`);
        // taskset execs node: the spawned pid is the members' process.
        let membersPid: number | undefined;
        const timeline = startCpuTimeline({
          api: () => (api.pid === undefined ? [] : processTree(api.pid).map((p) => p.pid)),
          postgres: () => {
            const pm = postmasterPid(pgDir);
            return pm === undefined ? [] : processTree(pm).map((p) => p.pid);
          },
          members: () => (membersPid === undefined ? [] : [membersPid]),
          sandbox: () => (sandbox.pid === undefined ? [] : processTree(sandbox.pid).map((p) => p.pid)),
        });
        let ticks: ReturnType<ReturnType<typeof startCpuTimeline>['stop']>;
        // This process (it samples /proc) is not in a group: named among the others when it was busy.
        const ours = () => timeline.grouped();
        try {
          await runNode(['scripts/bench/workload-members.ts', specFile, resultFile], process.env, clientCpu, (pid) => {
            membersPid = pid;
          });
        } finally {
          ticks = timeline.stop();
        }
        const r = JSON.parse(readFileSync(resultFile, 'utf8')) as MembersResult;
        const stalls = findStalls(r.samples, r.late)
          .sort((a, b) => b.worst - a.worst)
          .slice(0, STALLS_SHOWN)
          .map((s) => ({
            ...s,
            clock: new Date(r.windowStart + s.from).toISOString(),
            cpu: cpuBetween(ticks, r.windowStart + s.from, r.windowStart + s.to, ours()),
          }));
        const wall = (performance.now() - cpu0.at) / 1000;
        const perSecond = (x: number) => Math.round((x / wall) * 100) / 100;
        const cpu = {
          api: perSecond(cpuUnder(api.pid) - cpu0.api),
          postgres: perSecond(cpuUnder(postmasterPid(pgDir)) - cpu0.pg),
          members: r.cpuPerSecond,
          apiRunQueueWait: perSecond(runQueueWaitUnder(api.pid) - cpu0.wait),
        };
        const steps = aggregateSteps(r.samples, STEP_ORDER);
        const byBrand: WorkloadLevel['byBrand'] = {};
        for (const b of ['finance', 'card'])
          byBrand[b] = aggregateSteps(
            r.samples.filter((s) => s.brand === b),
            STEP_ORDER,
          );
        const offered = offeredLoad(shapes, members, o.thinkMs);
        const level: WorkloadLevel = {
          workers,
          members,
          seconds: r.seconds,
          requests: r.requests,
          rps: Math.round(r.requests / r.seconds),
          offeredRps: offered.requestsPerSecond,
          offeredStepsPerSecond: offered.stepsPerSecond,
          stepsPerSecond: Math.round((r.samples.length / r.seconds) * 10) / 10,
          errors: r.samples.filter((s) => !s.ok).length,
          errorCauses: errorCauses(r.samples).slice(0, 10),
          steps,
          byBrand,
          load1Before: before,
          load1After: load1(),
          apiProcesses,
          activeAtEnd: r.active,
          cpu,
          stalls,
          membersLate: { count: r.late.length, max: Math.max(0, ...r.late.map((l) => l.ms)) },
        };
        levels.push(level);
        log(
          `  ${members} members x${workers}: ${level.rps} req/s (offered ${level.offeredRps}), ${level.errors} errors; CPU s/s API ${cpu.api}, PostgreSQL ${cpu.postgres}, members ${cpu.members}; API waited for a core ${cpu.apiRunQueueWait} s/s; p99 ${steps.map((s) => `${s.step} ${s.p99}`).join(', ')}`,
        );
        for (const e of level.errorCauses) log(`    ${e.count} x ${e.cause}`);
        for (const st of level.stalls) log(`    ${describeStall(st)}`);
      }
      stops.splice(stops.indexOf(stopApi), 1);
      await stopApi();
    }
    const comparisons = o.workers.length > 1 ? o.workers.slice(1).flatMap((w) => compareWorkers(levels, o.workers[0] as number, w)) : [];
    const { sample: _, ...seed } = prepared;
    const serverEnv = Object.fromEntries(PASSED_ENV.flatMap((k) => (process.env[k] ? [[k, process.env[k] as string]] : [])));
    return { options: o, placement, serverEnv, seed, levels, comparisons };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopAll();
  }
}

/**
 * Rows for the tables: per level and step, the figure beside the budget (p99 and errors at the budget's member
 * count). A step of the plans that no member completed inside the window is shown with n 0, and fails there.
 */
export function judgeLevel(l: WorkloadLevel) {
  const budgeted = l.members === WORKLOAD_BUDGET.members;
  const missing = STEP_ORDER.filter((name) => !l.steps.some((s) => s.step === name)).map((step) => ({
    step,
    count: 0,
    errors: 0,
    p50: Number.NaN,
    p90: Number.NaN,
    p99: Number.NaN,
    max: Number.NaN,
    brands: [],
  }));
  const all = [...l.steps, ...missing].sort((a, b) => STEP_ORDER.indexOf(a.step) - STEP_ORDER.indexOf(b.step));
  return all.map((s) => ({
    ...s,
    budgeted,
    pass: budgeted ? s.count > 0 && s.p99 < WORKLOAD_BUDGET.p99Ms && s.errors === WORKLOAD_BUDGET.errors : undefined,
  }));
}

/** One stall in words: when, how long, which steps, what overlapped it, and who ran or waited for a core then. */
export function describeStall(st: WorkloadLevel['stalls'][number]): string {
  const cpu = st.cpu
    ? `; over ${st.cpu.span} ms ${Object.entries(st.cpu.groups)
        .map(([g, v]) => `${g === 'api' ? 'API' : g === 'postgres' ? 'PostgreSQL' : g} ran ${v.run} ms, waited ${v.wait}`)
        .join(
          ', ',
        )}; the machine's cores busy ${st.cpu.machine.busy} ms (the kernel's own ${st.cpu.machine.system}, interrupts ${st.cpu.machine.interrupts}), ${st.cpu.machine.steal} stolen by the hypervisor, ${st.cpu.machine.forks} processes or threads started${
        st.cpu.others.length ? `; busiest other processes over ${st.cpu.othersSpan} ms: ${st.cpu.others.map((o) => `${o.name} ${o.ms} ms`).join(', ')}` : ''
      }`
    : '';
  return `at ${(st.from / 1000).toFixed(1)} s (${st.clock.slice(11, 23)} UTC), ${Math.round(st.to - st.from)} ms (slowest step ${Math.round(st.worst)} ms): ${st.slow
    .map((s) => `${s.step} ${s.count}`)
    .join(', ')}; ${st.overlapping} steps overlapped it, ${st.signIns} of them sign-ins; members' process late ${st.membersLate} ms${cpu}`;
}

export function formatReport(r: WorkloadReport): string {
  const lines: string[] = [];
  const pad = (cells: (string | number)[], widths: number[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i] ?? 0) : String(c).padStart(widths[i] ?? 0))).join('  ');
  lines.push(
    `Mixed member workload on PostgreSQL: ${r.seed.claims} claims, ${r.seed.members} members, ${r.seed.logins} member logins; think ${r.options.thinkMs} ms (0.5-1.5x); members arrive over ${arrivalSpreadMs(r.options.arrival, r.options.thinkMs) / 1000} s (${r.options.arrival === 'cycle' ? 'one cycle' : 'one think time, the earlier method'}); ${r.options.warmup} s warm-up + ${r.options.duration} s per level; ${r.placement}; ${
      r.options.hashCost === SERVER_HASH_COST
        ? ''
        : `DIAGNOSTIC: logins hashed with Argon2id at ${r.options.hashCost} KiB, not the server's ${SERVER_HASH_COST}; `
    }server env: ${
      Object.entries(r.serverEnv)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || 'defaults'
    }`,
  );
  for (const l of r.levels) {
    lines.push(
      '',
      `${l.members} members, WORKERS=${l.workers} (${l.apiProcesses} node processes): ${l.rps} req/s achieved, ${l.offeredRps} offered; ${l.stepsPerSecond} steps/s (offered ${l.offeredStepsPerSecond}); errors ${l.errors}; CPU s/s: API ${l.cpu.api}, PostgreSQL ${l.cpu.postgres}, members ${l.cpu.members}; API threads waited for a core ${l.cpu.apiRunQueueWait} s/s; load average ${l.load1Before} -> ${l.load1After}`,
    );
    const head = ['step', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'result'];
    const body = judgeLevel(l).map((s) => [s.step, s.count, s.p50, s.p90, s.p99, s.max, s.errors, s.pass === undefined ? '' : s.pass ? 'pass' : 'FAIL']);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => String(b[i]).length)));
    lines.push(pad(head, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map((b) => pad(b, widths)));
    for (const e of l.errorCauses) lines.push(`  ${e.count} x ${e.cause}`);
    lines.push(
      `members' process late to its timers (over ${LATE_MS} ms) ${l.membersLate.count} times, at most ${l.membersLate.max} ms; ${
        l.stalls.length ? `slowest stalls (slow steps that overlapped: at least ${STALL_MIN_MS} ms and ${STALL_FACTOR}x their step's p90):` : 'no stalls'
      }`,
    );
    for (const st of l.stalls) lines.push(`  ${describeStall(st)}`);
  }
  for (const c of r.comparisons) {
    lines.push(
      '',
      `${c.members} members, WORKERS=${c.other} against WORKERS=${c.base}: achieved req/s x${c.rpsRatio ?? '-'}; p99 ${c.p99Ratio.map((p) => `${p.step} ${p.base} -> ${p.other} (x${p.ratio ?? '-'})`).join(', ')}`,
    );
  }
  lines.push('', `Budget: p99 < ${WORKLOAD_BUDGET.p99Ms} ms for every step and ${WORKLOAD_BUDGET.errors} errors at ${WORKLOAD_BUDGET.members} members.`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--prepare')) {
    await prepare(
      num(argv, 'scale', 1000),
      num(argv, 'member-count', 10_000),
      num(argv, 'sample', 500),
      num(argv, 'hash-cost', SERVER_HASH_COST),
      arg(argv, 'out') ?? 'workload-prepared.json',
    );
    return 0;
  }
  const o = parseOptions(argv);
  const before = load1();
  const report = await runWorkload(o);
  const m = machine();
  console.log(`${new Date().toISOString()}  ${m.nproc} CPU (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}`);
  console.log(`command: node --import tsx scripts/bench/workload.ts ${argv.join(' ')}`);
  console.log(formatReport(report));
  console.log(`\nload average (1 min) before ${before}, after ${load1()}`);
  const out = arg(argv, 'json');
  if (out) writeFileSync(out, `${JSON.stringify({ machine: m, ...report }, null, 2)}\n`);
  return report.levels.flatMap(judgeLevel).some((s) => s.pass === false) ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`workload failed: ${(e as Error).stack ?? e}`);
      process.exit(2);
    },
  );
}
