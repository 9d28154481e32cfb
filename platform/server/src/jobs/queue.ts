import type { SqlClient } from '../db/database';

/** A job as its handler sees it. */
export interface JobInfo {
  id: string;
  name: string;
  /** 1 for the first run, 2 for the first retry, and so on. */
  attempt: number;
  /** Runs allowed in all: retryLimit + 1. */
  maxAttempts: number;
}

/** Does the work; throwing fails this attempt (retried while attempts remain). */
export type JobHandler<P> = (payload: P, job: JobInfo) => Promise<void>;

export interface DefineOptions {
  /** Retries after the first failure (default 2). */
  retryLimit?: number;
  /** Seconds before a retry (default 0; at least 1 when retryBackoff is on). */
  retryDelay?: number;
  /** Doubles the delay on each retry, with jitter (default false). */
  retryBackoff?: boolean;
  /** A run taking longer than this fails (default 15 minutes). */
  expireInSeconds?: number;
  /**
   * How singleton keys deduplicate: 'short' keeps one waiting job per key, 'singleton' one running,
   * 'stately' one of each; 'standard' (default) does not deduplicate.
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /**
   * The payload carries a secret (a sign-in link, a code) or personal text (a mail body): it is stored sealed
   * (AES-256-GCM under a key derived from TOKEN_SECRET, bound to the job's kind and id), opened only to run the job,
   * and the job's row is deleted once a run succeeds instead of being kept as a finished job. A payload that does not
   * open (altered, or sealed under another secret) is not run: the job is cancelled, without retries, and logged
   * without its content. A payload stored in clear (queued by the release before sealing) is still run. Such a kind
   * cannot be scheduled, and the queue needs its secret (JobQueueOptions.secret).
   */
  sealed?: boolean;
}

export interface SendOptions {
  /** Deduplicates by the job kind's policy (see DefineOptions.policy). */
  singletonKey?: string;
  /** Not before this time; a number is seconds from now. */
  startAfter?: Date | number;
  /**
   * Stores the job as part of this transaction: it exists once the transaction commits, and never if it rolls back, so
   * a change and the work it announces cannot part (a change committed whose job was lost to a failed send or a crash
   * between the two). A worker may then take it up to one polling interval after the commit.
   */
  tx?: SqlClient;
}

/** The structured logger the queue writes to: pino's (Fastify's `app.log`) fits. */
export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Background work on a PostgreSQL-backed queue. Jobs are rows in the database, so a job sent inside the API
 * survives a restart and is worked by whichever process works jobs (every API process unless JOBS=off).
 */
export interface JobQueue {
  /** Whether this process runs handlers (false with JOBS=off: it only queues). */
  readonly working: boolean;
  /** Declares a job kind and its handler; before or after start(). Payloads must be JSON. */
  define<P extends object>(name: string, handler: JobHandler<P>, opts?: DefineOptions): Promise<void>;
  /** Queues a job of a defined kind; resolves with its id once it is stored (null when a singleton key held it back). */
  send<P extends object>(name: string, payload: P, opts?: SendOptions): Promise<string | null>;
  /** Runs a defined job on a cron schedule (UTC, minute resolution); one run per slot across all processes. */
  schedule(name: string, cron: string, payload?: object): Promise<void>;
  /** Installs the queue's tables when missing and starts working the defined jobs. */
  start(opts: { logger: JobLogger }): Promise<void>;
  /** Stops taking jobs, lets running ones finish (up to a timeout), then releases everything. */
  stop(): Promise<void>;
  /** For tests: resolves once no job of this process's kinds is running or due within the timeout; rejects on timeout. */
  drain(opts?: { timeoutMs?: number }): Promise<void>;
}
