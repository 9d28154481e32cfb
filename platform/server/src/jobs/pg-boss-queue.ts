import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import type { SqlClient } from '../db/database';
import { type LockNotice, type LockWait, underAdvisoryLock } from '../db/migrate';
import { loggedError } from '../http/security';
import { type QueueDb, queueDb, transactionQueueDb } from './pg-boss-db';
import type { DefineOptions, JobHandler, JobLogger, JobQueue, SendOptions } from './queue';
import { type PayloadSealer, payloadSealer } from './sealed-payload';

/** How long stop() lets the running jobs finish before it hands the rest back to the queue. */
export const JOB_STOP_TIMEOUT_MS = 30_000;

/**
 * The advisory lock under which a process installs the queue's schema and its queues, so that processes starting at
 * once take turns (its own key: an install does not wait for another version's long migration).
 */
export const JOB_QUEUE_LOCK_KEY = 727_273;
/** pg-boss 10's queue for cron jobs (src/timekeeper.js QUEUES.SEND_IT), which its scheduler makes at start. */
const CRON_QUEUE = '__pgboss__send-it';

export interface JobQueueOptions {
  /** Run handlers in this process (false for JOBS=off: it still queues jobs). */
  work: boolean;
  /** The queue's own PostgreSQL schema (default pgboss). */
  schema?: string;
  /** How often an idle worker looks for due jobs; send() wakes this process's worker at once. Default 2. */
  pollingIntervalSeconds?: number;
  /**
   * The same for a kind with a schedule (the housekeeping kinds: their jobs come from their cron, hourly or daily, or
   * from a send(), which wakes the worker at once), so a scheduled run starts up to this long after its minute. Default
   * 60: each look is a pg-boss fetch PostgreSQL plans in about 5 ms, and the 2 s of the other kinds, for the eight
   * scheduled ones too, was about 7 of them a second, busy or idle (docs/performance-log.md, sixty-ninth pass).
   */
  scheduledPollingIntervalSeconds?: number;
  /** How long stop() lets running jobs finish before failing them (they are retried later). Default 30 000. */
  stopTimeoutMs?: number;
  /** When a start waiting for the install lock says so (db/migrate.ts LOCK_NOTICE). */
  lockNotice?: LockNotice;
  /**
   * The secret the payloads of sealed job kinds (DefineOptions.sealed) are sealed under: the token secret
   * (config.tokenSecret). Every process of one database needs the same one, as for access tokens. Without it a sealed
   * kind cannot be defined.
   */
  secret?: string;
}

interface Definition {
  handler: JobHandler<object>;
  opts: DefineOptions;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The JobQueue on pg-boss, through our SqlClient (PGlite or PostgreSQL). */
export class PgBossJobQueue implements JobQueue {
  readonly working: boolean;
  private readonly boss: PgBoss;
  private readonly db: QueueDb;
  private readonly schema: string;
  private readonly sealer: PayloadSealer | null;
  private readonly definitions = new Map<string, Definition>();
  private readonly schedules = new Map<string, { cron: string; payload: object }>();
  /** Queue name → pg-boss worker id, to wake a worker when a job is sent. */
  private readonly workers = new Map<string, string>();
  private logger: JobLogger | null = null;
  private started: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly sql: SqlClient,
    private readonly opts: JobQueueOptions,
  ) {
    this.working = opts.work;
    this.schema = opts.schema ?? 'pgboss';
    this.db = queueDb(sql);
    this.sealer = opts.secret ? payloadSealer(opts.secret) : null;
    this.boss = new PgBoss({
      db: this.db,
      schema: this.schema,
      // Maintenance and cron belong to the processes that work jobs.
      supervise: opts.work,
      schedule: opts.work,
      pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2,
      // Finished jobs stay an hour, archived ones a day. Payloads with secrets (mail, codes) are sealed and their jobs
      // deleted once delivered (DefineOptions.sealed); only a sealed one that failed for good stays this long.
      archiveCompletedAfterSeconds: 60 * 60,
      deleteAfterDays: 1,
    });
    this.boss.on('error', (err) => this.log('error', { err }, 'job queue error'));
  }

  async define<P extends object>(name: string, handler: JobHandler<P>, opts: DefineOptions = {}): Promise<void> {
    if (this.definitions.has(name)) throw new Error(`job "${name}" is defined twice`);
    if (opts.sealed && !this.sealer) throw new Error(`job "${name}" is sealed, and the queue has no secret to seal it with`);
    const def: Definition = { handler: handler as JobHandler<object>, opts };
    this.definitions.set(name, def);
    // Defined before start(): start() installs it. After: install it now.
    if (this.started) {
      await this.started;
      await this.install([[name, def]], false);
      await this.startWorker(name, def);
    }
  }

  async send<P extends object>(name: string, payload: P, opts: SendOptions = {}): Promise<string | null> {
    // pg-boss drops a job for an unknown queue without a word; refuse loudly instead.
    const def = this.definitions.get(name);
    if (!def) throw new Error(`job "${name}" is not defined`);
    await this.ready();
    // In the caller's transaction: pg-boss's insert is one statement, run through the transaction's client.
    const db: PgBoss.Db | undefined = opts.tx && { executeSql: async (text, values) => ({ rows: await (opts.tx as SqlClient).query(text, values) }) };
    // A sealed payload is bound to its job's id, so the id is chosen here.
    const sealedId = def.opts.sealed ? randomUUID() : undefined;
    const data = sealedId && this.sealer ? this.sealer.seal(name, sealedId, payload) : payload;
    const id = await this.boss.send(name, data, definedOnly({ id: sealedId, singletonKey: opts.singletonKey, startAfter: opts.startAfter, db }));
    const worker = this.workers.get(name);
    if (worker) this.boss.notifyWorker(worker);
    return id;
  }

  async schedule(name: string, cron: string, payload: object = {}): Promise<void> {
    const def = this.definitions.get(name);
    if (!def) throw new Error(`job "${name}" is not defined`);
    // pg-boss's cron sends the payload itself, in clear.
    if (def.opts.sealed) throw new Error(`job "${name}" is sealed and cannot be scheduled`);
    this.schedules.set(name, { cron, payload });
    if (this.started) {
      await this.started;
      await this.boss.schedule(name, cron, payload, { tz: 'UTC' });
    }
  }

  async start(opts: { logger: JobLogger }): Promise<void> {
    if (this.started) throw new Error('the job queue was started already');
    this.logger = opts.logger;
    const defs = [...this.definitions];
    const schedules = [...this.schedules];
    this.started = (async () => {
      await this.install(defs, this.working);
      await this.boss.start();
      for (const [name, def] of defs) await this.startWorker(name, def);
      for (const [name, s] of schedules) await this.boss.schedule(name, s.cron, s.payload, { tz: 'UTC' });
    })();
    await this.started;
  }

  async stop(): Promise<void> {
    if (!this.started || this.stopped) return;
    this.stopped = true;
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, timeout: this.opts.stopTimeoutMs ?? JOB_STOP_TIMEOUT_MS });
    await this.db.close();
  }

  async drain(opts: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.working) throw new Error('this process does not work jobs (JOBS=off)');
    await this.ready();
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const deadline = new Date(Date.now() + timeoutMs);
    const names = [...this.definitions.keys()];
    for (;;) {
      const rows = await this.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${this.schema}.job WHERE name = ANY($1::text[]) AND state < 'completed' AND start_after < $2`,
        [names, deadline],
      );
      if ((rows[0]?.n ?? 0) === 0) return;
      if (Date.now() >= deadline.getTime()) throw new Error(`jobs still pending after ${timeoutMs} ms`);
      // Wake the workers rather than wait for their next poll: a retry that just became due runs now.
      for (const id of this.workers.values()) this.boss.notifyWorker(id);
      await sleep(50);
    }
  }

  private async ready(): Promise<void> {
    if (!this.started) throw new Error('the job queue is not started');
    if (this.stopped) throw new Error('the job queue is stopped');
    await this.started;
  }

  /**
   * Installs the queue's schema (made, or brought to this pg-boss's version) and the given queues with their options,
   * in one transaction under JOB_QUEUE_LOCK_KEY, through a pg-boss of its own that only installs. pg-boss's own
   * install is not safe against another process's at once: two schema creations race on the catalog's unique key,
   * and two create_queue (each adds a partition and foreign keys to the queue table) deadlock, and one start failed.
   * After it, this process's pg-boss finds everything made and changes nothing. `cron`: also pg-boss's cron queue,
   * which a process that schedules makes at start.
   */
  private async install(queues: readonly (readonly [string, Definition])[], cron: boolean): Promise<void> {
    const lock: LockWait = {
      name: 'the job queue install lock',
      key: JOB_QUEUE_LOCK_KEY,
      log: (msg, level) => this.log(level ?? 'info', {}, msg),
      notice: this.opts.lockNotice,
    };
    await underAdvisoryLock(this.sql, lock, async (tx) => {
      const installer = new PgBoss({ db: transactionQueueDb(tx), schema: this.schema, supervise: false, schedule: false, migrate: true });
      await installer.start();
      for (const [name, def] of queues) {
        // pg-boss checks options by presence ('retryDelay' in options), so unset ones must be left out, not undefined.
        const { sealed: _sealed, ...queueOpts } = def.opts;
        const queue: PgBoss.Queue = { name, ...definedOnly(queueOpts) };
        await installer.createQueue(name, queue);
        // createQueue keeps an existing queue as it was: apply options changed since.
        await installer.updateQueue(name, queue);
      }
      if (cron) await installer.createQueue(CRON_QUEUE);
    });
  }

  private async startWorker(name: string, def: Definition): Promise<void> {
    if (!this.working) return;
    const scheduled = this.schedules.has(name) ? { pollingIntervalSeconds: this.opts.scheduledPollingIntervalSeconds ?? 60 } : {};
    const id = await this.boss.work<object>(name, { includeMetadata: true, ...scheduled }, async (jobs) => {
      for (const job of jobs) await this.run(name, def, job);
    });
    this.workers.set(name, id);
  }

  private async run(name: string, def: Definition, job: PgBoss.JobWithMetadata<object>): Promise<void> {
    const info = { id: job.id, name, attempt: job.retryCount + 1, maxAttempts: job.retryLimit + 1 };
    let payload: object = job.data;
    if (def.opts.sealed) {
      const opened = this.openSealed(name, job, info.attempt);
      if (!opened) {
        // Not run and not retried: cancelled, pg-boss's completion after this callback then finds nothing to complete.
        await this.boss.cancel(name, job.id);
        return;
      }
      payload = opened;
    }
    try {
      await def.handler(payload, info);
    } catch (err) {
      const retry = job.retryCount < job.retryLimit;
      const fields = { job: name, jobId: job.id, attempt: info.attempt, maxAttempts: info.maxAttempts, err };
      this.log(retry ? 'warn' : 'error', fields, retry ? 'job failed; it will be retried' : 'job failed; no retries left');
      throw err;
    }
    if (def.opts.sealed) {
      // Done: the row goes now rather than stay an hour as a finished job and a day in the archive. pg-boss's
      // completion after this callback then finds nothing. A failed delete leaves it to the usual archiving.
      await this.boss.deleteJob(name, job.id).catch((err: unknown) => this.log('warn', { job: name, jobId: job.id, err }, 'a delivered job was not deleted'));
    }
  }

  /** The payload of a sealed kind's job, or null (logged, without the payload) when it does not open. */
  private openSealed(name: string, job: PgBoss.JobWithMetadata<object>, attempt: number): object | null {
    if (!this.sealer) throw new Error(`job "${name}" is sealed, and the queue has no secret to open it with`);
    try {
      const { payload, unsealed } = this.sealer.open(name, job.id, job.data);
      // One release's compatibility: a job queued in clear before payloads were sealed is still delivered.
      if (unsealed) this.log('warn', { job: name, jobId: job.id }, 'job payload stored in clear (queued before sealing); run as it is');
      return payload;
    } catch {
      this.log(
        'error',
        { job: name, jobId: job.id, attempt },
        'job refused: its sealed payload does not open (altered, or sealed under another TOKEN_SECRET); cancelled without running',
      );
      return null;
    }
  }

  private log(level: keyof JobLogger, obj: object, msg: string): void {
    if (this.logger) this.logger[level](obj, msg);
    else console.error(msg, { ...obj, err: loggedError((obj as { err?: unknown }).err) });
  }
}

/** The kernel's job queue over the application database. */
export function createJobQueue(database: { sql: SqlClient }, opts: JobQueueOptions): JobQueue {
  return new PgBossJobQueue(database.sql, opts);
}
