import { type AuditEntry, writeAudits } from './audit';
import type { SqlClient } from './db/database';

/**
 * Audit rows for reads and refusals, written in batches off the request's path: a busy search endpoint
 * costs one multi-row insert per batch instead of one insert per request. A batch is written at most
 * FLUSH_MS after its first row or as soon as it holds MAX_BATCH rows; close() writes what is left, so a
 * clean shutdown loses nothing. What a crash can lose is at most the last FLUSH_MS of read rows (writes
 * are audited inside their own transactions, never here).
 */
export class AuditBuffer {
  static readonly FLUSH_MS = 100;
  static readonly MAX_BATCH = 200;
  private rows: AuditEntry[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly sql: SqlClient,
    private readonly onError: (err: unknown, lost: number) => void,
  ) {}

  add(entry: AuditEntry): void {
    if (this.closed) return;
    this.rows.push(entry);
    if (this.rows.length >= AuditBuffer.MAX_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), AuditBuffer.FLUSH_MS);
  }

  /** Writes every buffered row; resolves when they are stored (tests and shutdown wait on it). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.rows;
    this.rows = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private async write(batch: AuditEntry[]): Promise<void> {
    try {
      await writeAudits(this.sql, batch);
    } catch (err) {
      this.onError(err, batch.length);
    }
  }
}
