import type { PluginInit, SqlClient } from '@portal/server';
import { heldPermissions } from '../rules';
import type { UsersService } from '../service';

/** The permission ids an administrator saved for the user, or null when theirs were never saved (users_permission_sets). */
export async function savedPermissionIds(sql: SqlClient, userId: string): Promise<number[] | null> {
  const rows = await sql.query<{ saved: boolean; permission_id: number | null }>(
    `SELECT s.user_id IS NOT NULL AS saved, p.permission_id
     FROM (SELECT $1::uuid AS user_id) q
     LEFT JOIN users_permission_sets s ON s.user_id = q.user_id
     LEFT JOIN users_permissions p ON p.user_id = q.user_id`,
    [userId],
  );
  if (!rows[0]?.saved) return null;
  return rows.flatMap((r) => (r.permission_id === null ? [] : [r.permission_id]));
}

/** Marks the user's permissions as saved (inside the save's transaction): from then on they hold only the saved ones. */
export const markPermissionsSaved = (tx: SqlClient, userId: string) =>
  tx.query('INSERT INTO users_permission_sets (user_id) VALUES ($1) ON CONFLICT (user_id) DO UPDATE SET saved_at = now()', [userId]);

/** The users plugin's read-only service (see ../service.ts). */
export function createUsersService({ database }: Pick<PluginInit, 'database'>): UsersService {
  const permissionsOf = async (userId: string) => heldPermissions(await savedPermissionIds(database.sql, userId));
  return {
    permissionsOf,
    hasPermission: async (userId, permission) => (await permissionsOf(userId)).includes(permission),
  };
}
