import type { SqlClient } from './db/database';

export interface AuditEntry {
  action: string;
  actorUserId?: string | null;
  actorName?: string | null;
  memberId?: number | null;
  entity?: string | null;
  entityId?: string | number | null;
  outcome?: 'success' | 'failure' | 'refused';
  ip?: string | null;
  requestId?: string | null;
  detail?: Record<string, unknown> | null;
}

const COLUMNS = 10;
/** Rows per INSERT: 10 parameters a row, well inside PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1000;

/** Append one row to the audit log. Audit rows are never updated or deleted by the application. */
export async function writeAudit(sql: SqlClient, e: AuditEntry): Promise<void> {
  await writeAudits(sql, [e]);
}

/**
 * Append rows to the audit log, many to an INSERT (a status change of 500 bills writes its 500 rows in one statement,
 * not 500 round trips inside its transaction).
 */
export async function writeAudits(sql: SqlClient, entries: readonly AuditEntry[]): Promise<void> {
  for (let from = 0; from < entries.length; from += ROWS_PER_INSERT) {
    const params: unknown[] = [];
    const values = entries.slice(from, from + ROWS_PER_INSERT).map((e, i) => {
      params.push(
        e.action,
        e.actorUserId ?? null,
        e.actorName ?? null,
        e.memberId ?? null,
        e.entity ?? null,
        e.entityId == null ? null : String(e.entityId),
        e.outcome ?? 'success',
        e.ip ?? null,
        e.requestId ?? null,
        e.detail ? JSON.stringify(e.detail) : null,
      );
      return `(${Array.from({ length: COLUMNS }, (_, c) => `$${i * COLUMNS + c + 1}`).join(', ')})`;
    });
    await sql.query(
      `INSERT INTO audit_log (action, actor_user_id, actor_name, member_id, entity, entity_id, outcome, ip, request_id, detail) VALUES ${values.join(', ')}`,
      params,
    );
  }
}
