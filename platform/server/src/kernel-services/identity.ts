import { type Language, languageOf } from '@portal/core';
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
  /** The roles of the logins of a member record (the member's program: CareGuard, CareAssist ...), sorted. */
  rolesOfMember(memberId: number, tx?: SqlClient): Promise<string[]>;
  /** The ids of the logins of a member record (to change a member's marker role, e.g. DeactivateBank). */
  userIdsOfMember(memberId: number, tx?: SqlClient): Promise<string[]>;
  /**
   * The language to write to a member in (an e-mail): the one their login signed in with last, else registered in;
   * English for a member without a login.
   */
  languageOfMember(memberId: number, tx?: SqlClient): Promise<Language>;
  /** Creates a user with its roles; returns the new id. */
  createUser(user: NewUser, tx?: SqlClient): Promise<string>;
  /**
   * Stores a new password hash (hash with hashPassword first: it is slow on purpose, keep it out of transactions).
   * With `replacing` (the hash the caller checked the current password against) only while it is still the stored one:
   * false when the password was changed meanwhile (a reset, another change), which then stays.
   */
  setPassword(userId: string, passwordHash: string, tx?: SqlClient, replacing?: string): Promise<boolean>;
  /** Marks the account active, optionally setting its password in the same statement. */
  activate(userId: string, opts?: { passwordHash?: string }, tx?: SqlClient): Promise<void>;
  /**
   * Sets the user's e-mail address. A user name that was the old address (any case) becomes the new one in the same
   * statement: the user signs in, and asks for a reset, with the address they use. Null when the user does not exist.
   */
  setEmail(userId: string, email: string, tx?: SqlClient): Promise<{ memberId: number | null; userName: string } | null>;
  /** Raises the registration step (never lowers it); null when the user does not exist. */
  raiseRegistrationStep(userId: string, step: number, tx?: SqlClient): Promise<number | null>;
  /** Ends every live session of the user except keepSessionId; their access tokens stop working at once in this process. */
  revokeSessions(userId: string, reason: string, opts?: { keepSessionId?: string | null }, tx?: SqlClient): Promise<void>;
  /** Closes a login for good: /token refuses it from now on and its sessions end (a member terminated by support). */
  close(userId: string, reason: string, tx?: SqlClient): Promise<void>;
  /**
   * Reopens a closed login (support undoing a member's termination): clears closed_at and its reason, so /token takes
   * it again. The caller audits it. Resolves true when the login was closed (and is now open), false otherwise.
   */
  reopen(userId: string, tx?: SqlClient): Promise<boolean>;
  /** One page of users matching every given filter (parts of names, any case), with the total count. */
  searchUsers(query: UserSearch, tx?: SqlClient): Promise<{ rows: UserSummary[]; total: number }>;
  /**
   * Replaces the user's roles among `within` by `roles` (each must be in `within`); roles outside `within`
   * stay as they are. Returns the roles among `within` held before.
   */
  setRoles(userId: string, roles: readonly string[], within: readonly string[], tx?: SqlClient): Promise<string[]>;
  /** Changes names, user name, e-mail and company when `version` is still current; returns the new version, null when stale or missing. */
  updateUser(userId: string, version: number, patch: UserPatch, tx?: SqlClient): Promise<number | null>;
  /** Raises the user's version when `version` is still current (a change of data keyed by the user); returns the new version, null when stale or missing. */
  bumpVersion(userId: string, version: number, tx?: SqlClient): Promise<number | null>;
}

/** A user as lists show it. */
export interface UserSummary {
  id: string;
  user_name: string;
  first_name: string;
  last_name: string;
  email: string | null;
  brand: string;
  member_id: number | null;
  company_id: number | null;
  is_active: boolean;
  /** Set when the login was closed for good (see UserRow). */
  closed_at: Date | string | null;
  version: number;
  /** The language e-mails to the user are written in (see UserRow). */
  language: Language;
}

export interface UserSearch {
  userName?: string;
  firstName?: string;
  lastName?: string;
  /** Users of any of these companies. */
  companyIds?: readonly number[];
  /** Users holding this role (exact key), or any of these roles. */
  role?: string | readonly string[];
  /** Only users without a member record (staff), or only members. */
  kind?: 'staff' | 'member';
  sort: 'UserName' | 'FirstName' | 'LastName';
  sortDir: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface UserPatch {
  userName: string;
  firstName: string;
  lastName: string;
  email: string | null;
  companyId: number | null;
  /** The language to write e-mails in until the user signs in with one (then theirs); unchanged when absent. */
  language?: Language;
}

const SORT_COLUMNS: Record<UserSearch['sort'], string> = { UserName: 'lower(u.user_name)', FirstName: 'lower(u.first_name)', LastName: 'lower(u.last_name)' };
/** The users list's ORDER BY: the column, then the id in the same direction, so an index (kernel 0008) serves either way. */
export const userOrder = (sort: UserSearch['sort'], dir: UserSearch['sortDir']): string => {
  const d = dir === 'desc' ? 'DESC' : 'ASC';
  return `${SORT_COLUMNS[sort]} ${d}, u.id ${d}`;
};

export function identityService(sql: SqlClient): IdentityService {
  return {
    findByName: (userName, tx) => findUserByName(tx ?? sql, userName),
    findById: (userId, tx) => findUserById(tx ?? sql, userId),
    rolesOf: (userId, tx) => rolesOf(tx ?? sql, userId),
    async rolesOfMember(memberId, tx) {
      const rows = await (tx ?? sql).query<{ role: string }>(
        'SELECT DISTINCT r.role FROM users u JOIN user_roles r ON r.user_id = u.id WHERE u.member_id = $1 ORDER BY r.role',
        [memberId],
      );
      return rows.map((r) => r.role);
    },
    async userIdsOfMember(memberId, tx) {
      const rows = await (tx ?? sql).query<{ id: string }>('SELECT id FROM users WHERE member_id = $1 ORDER BY id', [memberId]);
      return rows.map((r) => r.id);
    },
    async languageOfMember(memberId, tx) {
      // A member with two logins: the one that signed in last.
      const rows = await (tx ?? sql).query<{ language: string }>(
        `SELECT u.language FROM users u WHERE u.member_id = $1
         ORDER BY (SELECT max(s.created_at) FROM sessions s WHERE s.user_id = u.id) DESC NULLS LAST, u.created_at DESC LIMIT 1`,
        [memberId],
      );
      return languageOf(rows[0]?.language) ?? 'en';
    },
    createUser: (user, tx) => createUser(tx ?? sql, user),
    async setPassword(userId, passwordHash, tx, replacing) {
      const rows = await (tx ?? sql).query<{ id: string }>(
        'UPDATE users SET password_hash = $2, version = version + 1 WHERE id = $1 AND ($3::text IS NULL OR password_hash = $3) RETURNING id',
        [userId, passwordHash, replacing ?? null],
      );
      return rows.length > 0;
    },
    async activate(userId, opts = {}, tx = undefined) {
      await (tx ?? sql).query('UPDATE users SET is_active = true, password_hash = COALESCE($2, password_hash), version = version + 1 WHERE id = $1', [
        userId,
        opts.passwordHash ?? null,
      ]);
    },
    async setEmail(userId, email, tx) {
      const rows = await (tx ?? sql).query<{ member_id: number | null; user_name: string }>(
        `UPDATE users SET email = $2, user_name = CASE WHEN lower(user_name) = lower(email) THEN $2 ELSE user_name END, version = version + 1
         WHERE id = $1 RETURNING member_id, user_name`,
        [userId, email],
      );
      return rows[0] ? { memberId: rows[0].member_id, userName: rows[0].user_name } : null;
    },
    async raiseRegistrationStep(userId, step, tx) {
      const rows = await (tx ?? sql).query<{ registration_step: number }>(
        'UPDATE users SET registration_step = GREATEST(registration_step, $2) WHERE id = $1 RETURNING registration_step',
        [userId, step],
      );
      return rows[0]?.registration_step ?? null;
    },
    async close(userId, reason, tx) {
      await (tx ?? sql).query('UPDATE users SET closed_at = coalesce(closed_at, now()), closed_reason = coalesce(closed_reason, $2) WHERE id = $1', [
        userId,
        reason,
      ]);
      await (tx ?? sql).query('UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, reason]);
      forgetSessions({ userId });
    },
    async reopen(userId, tx) {
      const rows = await (tx ?? sql).query<{ id: string }>(
        'UPDATE users SET closed_at = NULL, closed_reason = NULL WHERE id = $1 AND closed_at IS NOT NULL RETURNING id',
        [userId],
      );
      return rows.length > 0;
    },
    async revokeSessions(userId, reason, opts = {}, tx = undefined) {
      await (tx ?? sql).query(
        `UPDATE sessions SET revoked_at = now(), revoke_reason = $2
         WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
        [userId, reason, opts.keepSessionId ?? null],
      );
      forgetSessions({ userId });
    },
    async searchUsers(q, tx) {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (clause: (n: number) => string, value: unknown) => {
        params.push(value);
        where.push(clause(params.length));
      };
      if (q.userName) add((n) => `strpos(lower(u.user_name), lower($${n})) > 0`, q.userName);
      if (q.firstName) add((n) => `strpos(lower(u.first_name), lower($${n})) > 0`, q.firstName);
      if (q.lastName) add((n) => `strpos(lower(u.last_name), lower($${n})) > 0`, q.lastName);
      if (q.companyIds) add((n) => `u.company_id = ANY($${n}::int[])`, [...q.companyIds]);
      if (q.role) add((n) => `EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = ANY($${n}::text[]))`, [q.role].flat());
      if (q.kind) where.push(q.kind === 'staff' ? 'u.member_id IS NULL' : 'u.member_id IS NOT NULL');
      const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const db = tx ?? sql;
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u ${filter}`, params))[0]?.n ?? 0;
      const rows = await db.query<UserSummary>(
        `SELECT u.id, u.user_name, u.first_name, u.last_name, u.email, u.brand, u.member_id, u.company_id, u.is_active, u.closed_at, u.version, u.language FROM users u ${filter}
         ORDER BY ${userOrder(q.sort, q.sortDir)} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, q.limit, q.offset],
      );
      return { rows, total };
    },
    async setRoles(userId, roles, within, tx) {
      const outside = roles.filter((r) => !within.includes(r));
      if (outside.length) throw new Error(`setRoles: ${outside.join(', ')} not among the roles it may set`);
      const db = tx ?? sql;
      const before = await db.query<{ role: string }>('DELETE FROM user_roles WHERE user_id = $1 AND role = ANY($2::text[]) RETURNING role', [
        userId,
        [...within],
      ]);
      for (const role of new Set(roles)) await db.query('INSERT INTO user_roles (user_id, role) VALUES ($1, $2)', [userId, role]);
      return before.map((r) => r.role).sort();
    },
    async updateUser(userId, version, p, tx) {
      const rows = await (tx ?? sql).query<{ version: number }>(
        `UPDATE users SET user_name = $3, first_name = $4, last_name = $5, email = $6, company_id = $7, language = coalesce($8, language),
           version = version + 1
         WHERE id = $1 AND version = $2 RETURNING version`,
        [userId, version, p.userName, p.firstName, p.lastName, p.email, p.companyId, p.language ?? null],
      );
      return rows[0]?.version ?? null;
    },
    async bumpVersion(userId, version, tx) {
      const rows = await (tx ?? sql).query<{ version: number }>('UPDATE users SET version = version + 1 WHERE id = $1 AND version = $2 RETURNING version', [
        userId,
        version,
      ]);
      return rows[0]?.version ?? null;
    },
  };
}
