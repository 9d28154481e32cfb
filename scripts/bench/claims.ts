/**
 * Bills search benchmark: a million claims, the real API server in a second process, and autocannon
 * driving POST /api/claims/search with a realistic mix of filters, sorts and pages.
 *
 *   node --import tsx scripts/bench/claims.ts [--engine pglite|postgres|both] [--scale 1000] [--duration 30] [--connections 16]
 *
 * --engine postgres needs DATABASE_URL; 'both' (the default when DATABASE_URL is set) runs PGlite, then PostgreSQL.
 * The data lives in .data/bench-claims-<engine> (PGlite) or the DATABASE_URL database; an earlier seed of the
 * same scale is reused. Prints requests/s and latency percentiles per engine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledApiArgs } from '../../apps/server/compiled';
import { PRODUCTION_ENV } from './lib';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..');
const TOKEN_SECRET = 'bench-claims-secret-not-for-production';
const BENCH_MEMBERS = 32;

/** The slice of autocannon's API used here; autocannon is a devDependency of the root package. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const loadAutocannon = (): Autocannon => createRequire(join(ROOT, 'package.json'))('autocannon') as Autocannon;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

interface Prepared {
  members: { memberId: number; access: string; form: string }[];
  superUser: { access: string; form: string };
  memberNumbers: string[];
  claimNumbers: string[];
  checkNumbers: string[];
  claims: number;
}

/** Child step: seed (or reuse) the data, then mint sessions for the bench users. Runs with the engine's env. */
async function prepare(scale: number, out: string) {
  const { seed } = await import('../seed');
  await seed(scale, (m) => console.log(`  seed: ${m}`));
  const { createServer } = await import('@portal/app-server/server');
  const { createUser, signAccessToken, formTokenFor } = await import('@portal/server/kernel');
  const server = await createServer({ tokenSecret: TOKEN_SECRET }, { logger: false });
  const sql = server.database.sql;
  const mint = async (userId: string, name: string, roles: string[], mid: number | null) => {
    const sid = randomUUID();
    // Sessions are bound to the brand site they signed in on: every bench request goes to the staff host.
    await sql.query(`INSERT INTO sessions (id, user_id, expires_at, brand) VALUES ($1, $2, now() + interval '3 hours', 'staff')`, [sid, userId]);
    const now = Math.floor(Date.now() / 1000);
    return {
      access: signAccessToken({ sub: userId, sid, name, roles, mid, brd: 'staff', iat: now, exp: now + 3 * 3600 }, TOKEN_SECRET),
      form: formTokenFor(sid, TOKEN_SECRET),
    };
  };
  // Logins for generated members (they have none): a finance member's own bills list.
  const picked = await sql.query<{ member_id: number }>(
    `SELECT member_id FROM members WHERE member_number LIKE 'G%' ORDER BY member_id LIMIT ${BENCH_MEMBERS}`,
  );
  const members: Prepared['members'] = [];
  for (const p of picked) {
    const userName = `bench.member${p.member_id}`;
    let id = (await sql.query<{ id: string }>('SELECT id FROM users WHERE user_name = $1', [userName]))[0]?.id;
    id ??= await createUser(sql, {
      userName,
      passwordHash: 'x',
      firstName: 'Bench',
      lastName: String(p.member_id),
      brand: 'finance',
      memberId: p.member_id,
      roles: ['CareGuardFinance'],
    });
    members.push({ memberId: p.member_id, ...(await mint(id, userName, ['CareGuardFinance'], p.member_id)) });
  }
  const su = (await sql.query<{ id: string }>("SELECT id FROM users WHERE user_name = 'staff.superuser'"))[0];
  if (!su) throw new Error('the seed made no staff.superuser');
  const sample = (q: string) => sql.query<{ v: string }>(q).then((r) => r.map((x) => x.v));
  const prepared: Prepared = {
    members,
    superUser: await mint(su.id, 'staff.superuser', ['SuperUser'], null),
    memberNumbers: await sample("SELECT member_number AS v FROM members WHERE member_number LIKE 'G%' ORDER BY member_id LIMIT 500"),
    claimNumbers: await sample('SELECT claim_number AS v FROM claims TABLESAMPLE SYSTEM (1) LIMIT 500'),
    checkNumbers: await sample('SELECT check_number AS v FROM claims TABLESAMPLE SYSTEM (1) WHERE check_number IS NOT NULL LIMIT 500'),
    claims: (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM claims'))[0]?.n ?? 0,
  };
  writeFileSync(out, JSON.stringify(prepared));
  await server.close();
}

const SORTS = [
  'ClaimID',
  'ClaimNumber',
  'PayeeName',
  'ClaimStatusID',
  'BillTypeID',
  'BilledAmount',
  'SubmittedUNCAmount',
  'ServiceDateFrom',
  'ServiceDateTo',
  'ReceivedDate',
  'PaidDate',
  'PaidAmount',
  'CheckNumber',
];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A pool of requests in the mix's proportions: member lists dominate; staff search across members with deep pages. */
function buildMix(p: Prepared, size = 4000): { headers: Record<string, string>; body: string; kind: string }[] {
  let s = 12345;
  const r = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;
  const base = (t: { access: string; form: string }) => ({
    authorization: `Bearer ${t.access}`,
    'x-form-token': t.form,
    host: 'staff.localhost',
    'content-type': 'application/json',
  });
  const sixMonths = { ReceivedDateFrom: day(-182), ReceivedDateTo: day(0) };
  const kinds: [number, string, () => { headers: Record<string, string>; body: Record<string, unknown> }][] = [
    [
      30,
      'member default (last 6 months)',
      () => ({ headers: base(pick(p.members)), body: { ...sixMonths, SortColumn: 'ClaimID', SortOrder: 'desc', PageIndex: 0, PageSize: 20 } }),
    ],
    [
      15,
      'member sort by any column',
      () => ({
        headers: base(pick(p.members)),
        body: { SortColumn: pick(SORTS), SortOrder: pick(['asc', 'desc']), PageIndex: Math.floor(r() * 4), PageSize: pick([10, 20, 50]) },
      }),
    ],
    [
      10,
      'member status + date range',
      () => ({
        headers: base(pick(p.members)),
        body: {
          ClaimStatusID: pick([1, 2, 4, 5, 8]),
          ServiceDateFrom: day(-365),
          ServiceDateTo: day(-30),
          SortColumn: 'ServiceDateFrom',
          SortOrder: 'desc',
          PageSize: 20,
        },
      }),
    ],
    [
      5,
      'member paid/unpaid + bill type',
      () => ({
        headers: base(pick(p.members)),
        body: { IsPaid: r() < 0.5, BillTypeID: pick([1, 2, 21]), SortColumn: 'PaidDate', SortOrder: 'desc', PageSize: 20 },
      }),
    ],
    [
      10,
      'superuser impersonating a member',
      () => ({
        headers: { ...base(p.superUser), 'x-member-id': String(pick(p.members).memberId) },
        body: { ...sixMonths, SortColumn: pick(SORTS), SortOrder: pick(['asc', 'desc']), PageSize: 20 },
      }),
    ],
    [
      10,
      'staff all members, last 6 months, deep pages',
      () => ({
        headers: base(p.superUser),
        body: { ...sixMonths, SortColumn: pick(['ClaimID', 'ReceivedDate']), SortOrder: 'desc', PageIndex: Math.floor(r() ** 2 * 500), PageSize: 20 },
      }),
    ],
    [
      5,
      'staff status + received range',
      () => ({
        headers: base(p.superUser),
        body: {
          ClaimStatusID: pick([1, 2, 3, 5, 6, 29, 30]),
          ReceivedDateFrom: day(-90),
          ReceivedDateTo: day(0),
          SortColumn: 'ReceivedDate',
          SortOrder: pick(['asc', 'desc']),
          PageIndex: Math.floor(r() * 20),
          PageSize: 20,
        },
      }),
    ],
    [
      5,
      'staff paid in the last month by paid date',
      () => ({
        headers: base(p.superUser),
        body: {
          PaidDateFrom: day(-30),
          PaidDateTo: day(0),
          SortColumn: 'PaidDate',
          SortOrder: 'desc',
          PageIndex: Math.floor(r() * 20),
          PageSize: pick([20, 50, 100]),
        },
      }),
    ],
    [
      5,
      'staff by member number',
      () => ({ headers: base(p.superUser), body: { MemberNumber: pick(p.memberNumbers), SortColumn: pick(SORTS), SortOrder: 'desc', PageSize: 20 } }),
    ],
    [
      5,
      'staff by claim or check number',
      () => ({ headers: base(p.superUser), body: r() < 0.5 ? { ClaimNumber: pick(p.claimNumbers) } : { CheckNumber: pick(p.checkNumbers) } }),
    ],
  ];
  const total = kinds.reduce((a, [w]) => a + w, 0);
  const pool: { headers: Record<string, string>; body: string; kind: string }[] = [];
  for (let i = 0; i < size; i++) {
    let x = r() * total;
    const k =
      kinds.find(([w]) => {
        x -= w;
        return x < 0;
      }) ?? kinds[0];
    if (!k) throw new Error('empty mix');
    const v = k[2]();
    pool.push({ headers: v.headers, body: JSON.stringify(v.body), kind: k[1] });
  }
  return pool;
}

/** One request with node:http (fetch does not let a caller set Host); resolves to status and milliseconds. */
function timedPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/claims/search`, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each kind of request a few times, one at a time: shows which part of the mix costs what. */
async function probe(url: string, pool: ReturnType<typeof buildMix>) {
  const byKind = new Map<string, number[]>();
  for (const v of pool.slice(0, 300)) {
    const r = await timedPost(url, v.headers, v.body);
    if (r.status !== 200) throw new Error(`${v.kind}: HTTP ${r.status} ${r.text.slice(0, 200)} for ${v.body}`);
    byKind.set(v.kind, [...(byKind.get(v.kind) ?? []), r.ms]);
  }
  const rows = [...byKind].map(([kind, ms]) => {
    ms.sort((a, b) => a - b);
    return { kind, n: ms.length, 'median ms': Number((ms[Math.floor(ms.length / 2)] ?? 0).toFixed(1)), 'max ms': Number((ms.at(-1) ?? 0).toFixed(1)) };
  });
  console.log('   one at a time, by kind:');
  console.table(rows);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { cwd: ROOT, env, stdio: 'inherit' });
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

async function waitForServer(url: string, child: ChildProcess, seconds = 120) {
  for (let i = 0; i < seconds * 4; i++) {
    if (child.exitCode !== null) throw new Error(`the API server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error('the API server did not start');
}

async function benchEngine(engine: 'pglite' | 'postgres', scale: number, duration: number, connections: number) {
  const dataDir = join(ROOT, '.data', `bench-claims-${engine}`);
  mkdirSync(dataDir, { recursive: true });
  // As production runs it (NODE_ENV=production: no development check of every answer against its contract).
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, TOKEN_SECRET, LOG_LEVEL: 'warn', ...PRODUCTION_ENV };
  if (engine === 'pglite') delete env.DATABASE_URL;
  else if (!env.DATABASE_URL) throw new Error('--engine postgres needs DATABASE_URL');
  console.log(`\n== ${engine}: preparing ${scale * 1000} claims in ${engine === 'pglite' ? dataDir : 'DATABASE_URL'}`);
  const t0 = Date.now();
  const out = join(dataDir, 'bench-claims.json');
  await run(process.execPath, ['--import', 'tsx', 'scripts/bench/claims.ts', '--prepare', '--scale', String(scale), '--out', out], env);
  console.log(`   prepared in ${Math.round((Date.now() - t0) / 1000)} s`);
  const prepared = JSON.parse(readFileSync(out, 'utf8')) as Prepared;
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const server = spawn(process.execPath, compiledApiArgs(), {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'inherit',
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForServer(url, server);
    console.log(`   API server (pid ${server.pid}) on ${url}; warming up, then ${duration} s at ${connections} connections`);
    const pool = buildMix(prepared);
    await probe(url, pool);
    const autocannon = loadAutocannon();
    let next = 0;
    const requests = [
      {
        method: 'POST' as const,
        path: '/api/claims/search',
        setupRequest: (req: Record<string, unknown>) => {
          const v = pool[next++ % pool.length] as (typeof pool)[number];
          return { ...req, headers: v.headers, body: v.body };
        },
      },
    ];
    // Warm the caches and the JIT first; then the measured run.
    await autocannon({ url, connections, duration: 3, requests });
    next = 0;
    const res = await autocannon({ url, connections, duration, requests });
    const line = {
      engine,
      claims: prepared.claims,
      connections,
      seconds: duration,
      'requests/s': Math.round(res.requests.average),
      'p50 ms': res.latency.p50,
      'p90 ms': res.latency.p90,
      'p99 ms': res.latency.p99,
      'max ms': res.latency.max,
      requests: res.requests.total,
      non2xx: res.non2xx,
      errors: res.errors,
      timeouts: res.timeouts,
    };
    console.log(`== ${engine} result`);
    console.table([line]);
    return line;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

async function main() {
  const scale = Number(arg('scale', '1000'));
  if (process.argv.includes('--prepare')) return prepare(scale, arg('out', 'bench-claims.json'));
  const duration = Number(arg('duration', '30'));
  const connections = Number(arg('connections', '16'));
  const engineArg = arg('engine', process.env.DATABASE_URL ? 'both' : 'pglite');
  const engines = engineArg === 'both' ? (['pglite', 'postgres'] as const) : [engineArg as 'pglite' | 'postgres'];
  const lines = [];
  for (const e of engines) lines.push(await benchEngine(e, scale, duration, connections));
  console.log('\n== summary (POST /api/claims/search)');
  console.table(lines);
}

/**
 * For scripts/bench/run: the claims search at a million claims on one engine (its own seeded database and
 * API process; the runner's small demo server is not used). Budget: p99 under 50 ms on PostgreSQL.
 */
export async function runClaimsBench(a: { engine: 'pglite' | 'postgres'; databaseUrl?: string; duration: number; connections: number }) {
  if (a.engine === 'postgres') {
    if (!a.databaseUrl) throw new Error('the PostgreSQL claims bench needs a database URL');
    process.env.DATABASE_URL = a.databaseUrl;
  }
  const scale = Number(process.env.CLAIMS_BENCH_SCALE ?? 1000);
  const line = await benchEngine(a.engine, scale, Math.max(10, a.duration), a.connections);
  return {
    name: `POST /api/claims/search (${scale * 1000} claims, mix)`,
    rps: line['requests/s'],
    p50: line['p50 ms'],
    p99: line['p99 ms'],
    errors: line.errors + line.non2xx + line.timeouts,
    ...(a.engine === 'postgres' ? { budget: { p99: 50 } } : {}),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(`bench failed: ${(e as Error).stack ?? e}`);
    process.exit(1);
  });
}
