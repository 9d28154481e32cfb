import { type AuditEntry, writeAudit } from '../audit';
import type { SqlClient } from '../db/database';

/** Audit rows outside a request (jobs, seeds); inside a request use ctx.audit, which names the user. */
export interface AuditService {
  write(entry: AuditEntry, tx?: SqlClient): Promise<void>;
}

export const auditService = (sql: SqlClient): AuditService => ({ write: (entry, tx) => writeAudit(tx ?? sql, entry) });
