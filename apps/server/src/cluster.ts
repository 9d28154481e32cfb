import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { ConfigError, DRAIN_TIMEOUT_MS, JOB_STOP_TIMEOUT_MS } from '@portal/server/kernel';

const MAX_WORKERS = 64;
/** A worker that dies sooner than this after it started counts as a crash loop. */
const EARLY_EXIT_MS = 10_000;
const MAX_EARLY_EXITS = 5;
/**
 * How long a stopping worker gets before it is killed: its close waits for the route handlers still running (up to
 * DRAIN_TIMEOUT_MS), then for its running jobs (up to JOB_STOP_TIMEOUT_MS), then closes its pool.
 */
const STOP_GRACE_MS = DRAIN_TIMEOUT_MS + JOB_STOP_TIMEOUT_MS + 5_000;

/**
 * WORKERS: how many API processes share the port. Unset or 1: this process serves. `auto`: one per core.
 * More than one needs PostgreSQL (DATABASE_URL): the embedded PGlite database belongs to a single process.
 */
export function parseWorkers(env: NodeJS.ProcessEnv): number {
  const raw = env.WORKERS?.trim();
  if (raw === undefined || raw === '') return 1;
  const n = raw === 'auto' ? availableParallelism() : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS)
    throw new ConfigError(`WORKERS must be a whole number from 1 to ${MAX_WORKERS} or "auto", got "${raw}"`);
  if (n > 1 && !env.DATABASE_URL)
    throw new ConfigError(
      `WORKERS=${raw} needs DATABASE_URL: the embedded PGlite database belongs to one process; run PostgreSQL to run several API processes`,
    );
  return n;
}

const say = (msg: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg })}\n`);

/**
 * The primary of WORKERS=N: forks the first worker and waits until it listens (it applies the migrations, under the
 * database's advisory lock, before the others start), then the rest. A worker that exits on its own is replaced;
 * five exits within 10 s of starting in a row stop everything (a crash loop, e.g. the database refused us).
 * SIGTERM/SIGINT stop the workers (each closes its server, then its jobs, then its pool) and then the primary.
 */
export async function startPrimary(count: number): Promise<void> {
  let stopping = false;
  let earlyExits = 0;
  const startedAt = new Map<number, number>();

  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      // Each worker shares the machine's cores with the others (password hashing's places: auth/password.ts hashSlots).
      const w = cluster.fork({ API_PROCESSES: String(count) });
      startedAt.set(w.id, Date.now());
      const onExit = (code: number | null) => reject(new Error(`worker ${w.id} exited with ${code} before it listened`));
      w.once('exit', onExit);
      w.once('listening', () => {
        w.off('exit', onExit);
        say(`worker ${w.id} (pid ${w.process.pid}) listening`);
        resolve(w);
      });
    });

  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(w.id) ?? 0);
    earlyExits = lived < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    say(`worker ${w.id} (pid ${w.process.pid}) exited (${signal ?? code}) after ${Math.round(lived / 1000)} s`);
    if (earlyExits >= MAX_EARLY_EXITS) {
      console.error(`The API server could not start: ${MAX_EARLY_EXITS} workers in a row exited within ${EARLY_EXIT_MS / 1000} s`);
      void stopAll(1);
      return;
    }
    fork().catch((e: unknown) => say(`replacing worker ${w.id} failed: ${(e as Error).message}`));
  });

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exited = Promise.all(live.map((w) => new Promise((r) => (w.isDead() ? r(null) : w.once('exit', r)))));
    for (const w of live) w.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const w of live) if (!w.isDead()) w.process.kill('SIGKILL');
    }, STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  try {
    await fork();
    await Promise.all(Array.from({ length: count - 1 }, fork));
  } catch (e) {
    await stopAll(1);
    throw e;
  }
  say(`${count} API processes share port ${process.env.PORT ?? 8080} (primary pid ${process.pid})`);
}
