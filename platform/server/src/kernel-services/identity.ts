import { forgetSessions } from '../auth/session';
import { createUser, findUserById, findUserByName, type NewUser, rolesOf, type UserRow } from '../auth/users';
import type { SqlClient } from '../db/database';

export type { NewUser, UserRow };

/**
 * Users, roles and sessions as plugins may touch them. Every method takes an optional transaction so a
 * plugin's own rows and the kernel's change commit together.
 */
export interface IdentityService {
  findByName(userName: string, tx?: SqlClient): Promise<UserRow | null>;
  findById(userId: string, tx?: SqlClient): Promise<UserRow | null>;
  rolesOf(userId: string, tx?: SqlClient): Promise<string[]>;
  /** Creates a user with its roles; returns the new id. */
  createUser(user: NewUser, tx?: SqlClient): Promise<string>;
  /** Stores a new password hash (hash with hashPassword first: scrypt is slow, keep it out of transactions). */
  setPassword(userId: string, passwordHash: string, tx?: SqlClient): Promise<void>;
  /** Marks the account active, optionally setting its password in the same statement. */
  activate(userId: string, opts?: { passwordHash?: string }, tx?: SqlClient): Promise<void>;
  setEmail(userId: string, email: string, tx?: SqlClient): Promise<{ memberId: number | null } | null>;
  /** Raises the registration step (never lowers it); null when the user does not exist. */
  raiseRegistrationStep(userId: string, step: number, tx?: SqlClient): Promise<number | null>;
  /** Ends every live session of the user except keepSessionId; their access tokens stop working at once in this process. */
  revokeSessions(userId: string, reason: string, opts?: { keepSessionId?: string | null }, tx?: SqlClient): Promise<void>;
}

export function identityService(sql: SqlClient): IdentityService {
  return {
    findByName: (userName, tx) => findUserByName(tx ?? sql, userName),
    findById: (userId, tx) => findUserById(tx ?? sql, userId),
    rolesOf: (userId, tx) => rolesOf(tx ?? sql, userId),
    createUser: (user, tx) => createUser(tx ?? sql, user),
    async setPassword(userId, passwordHash, tx) {
      await (tx ?? sql).query('UPDATE users SET password_hash = $2, version = version + 1 WHERE id = $1', [userId, passwordHash]);
    },
    async activate(userId, opts = {}, tx = undefined) {
      await (tx ?? sql).query('UPDATE users SET is_active = true, password_hash = COALESCE($2, password_hash), version = version + 1 WHERE id = $1', [
        userId,
        opts.passwordHash ?? null,
      ]);
    },
    async setEmail(userId, email, tx) {
      const rows = await (tx ?? sql).query<{ member_id: number | null }>(
        'UPDATE users SET email = $2, version = version + 1 WHERE id = $1 RETURNING member_id',
        [userId, email],
      );
      return rows[0] ? { memberId: rows[0].member_id } : null;
    },
    async raiseRegistrationStep(userId, step, tx) {
      const rows = await (tx ?? sql).query<{ registration_step: number }>(
        'UPDATE users SET registration_step = GREATEST(registration_step, $2) WHERE id = $1 RETURNING registration_step',
        [userId, step],
      );
      return rows[0]?.registration_step ?? null;
    },
    async revokeSessions(userId, reason, opts = {}, tx = undefined) {
      await (tx ?? sql).query(
        `UPDATE sessions SET revoked_at = now(), revoke_reason = $2
         WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
        [userId, reason, opts.keepSessionId ?? null],
      );
      forgetSessions({ userId });
    },
  };
}
