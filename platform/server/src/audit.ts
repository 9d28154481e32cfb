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

/** Append one row to the audit log. Audit rows are never updated or deleted by the application. */
export async function writeAudit(sql: SqlClient, e: AuditEntry): Promise<void> {
  await sql.query(
    `INSERT INTO audit_log (action, actor_user_id, actor_name, member_id, entity, entity_id, outcome, ip, request_id, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
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
    ],
  );
}
