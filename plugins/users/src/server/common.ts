import type { AdminRole } from '@portal/core';
import { ApiError, type AuthUser, conflict, forbidden, notFound, type RouteContext, type SqlClient, type UserRow, type UserSummary } from '@portal/server';
import { type User, UsersMessages } from '../contract';
import { ADMIN_CAPABILITIES, type AdminCapability, changeRefusal, may, standingOf } from '../rules';

export const isUniqueViolation = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';

/** The signed-in caller (the route's access list guarantees one). */
export function caller(ctx: Pick<RouteContext, 'user'>): AuthUser {
  if (!ctx.user) throw new ApiError(401, 'Please sign in.');
  return ctx.user;
}

/** The caller's roles as stored now (not as the access token says): a role taken away counts at once. */
export const callerRoles = (ctx: Pick<RouteContext, 'user' | 'services'>, tx?: SqlClient) => ctx.services.identity.rolesOf(caller(ctx).id, tx);

export async function loadUser(ctx: Pick<RouteContext, 'services'>, id: string, tx?: SqlClient): Promise<UserRow> {
  const user = await ctx.services.identity.findById(id, tx);
  if (!user) throw notFound(UsersMessages.notFound);
  return user;
}

/**
 * Checks the caller may change this user's administration data: holds a role of the capability, the user is
 * a staff login (members are changed on the support member screens) and does not outrank the caller.
 * Resolves with the caller's roles.
 */
export async function requireChange(
  ctx: Pick<RouteContext, 'user' | 'services'>,
  target: UserRow | null,
  capability: AdminCapability | null,
): Promise<string[]> {
  const roles = await callerRoles(ctx);
  if (capability && !may(roles, capability)) throw forbidden(UsersMessages.needsRole(ADMIN_CAPABILITIES[capability]));
  if (target) {
    // The rule the web applies to its Edit buttons (rules.changeRefusal): members, the caller's own, a higher standing.
    const standing = standingOf(await ctx.services.identity.rolesOf(target.id));
    const refusal = changeRefusal({ id: caller(ctx).id, roles }, { id: target.id, standing, isMember: target.member_id !== null }, capability ?? 'details');
    if (refusal === 'member') throw conflict(UsersMessages.memberAccount);
    if (refusal === 'own') throw forbidden(OWN_REFUSAL[capability ?? 'roles']);
    if (refusal === 'outranked') throw forbidden(UsersMessages.outranked);
  }
  return roles;
}
const OWN_REFUSAL: Record<AdminCapability, string> = {
  roles: UsersMessages.ownRoles,
  quotas: UsersMessages.ownQuotas,
  teams: UsersMessages.ownTeams,
  permissions: UsersMessages.ownPermissions,
};

/** Raises the user's Version inside the transaction of a change, or refuses a stale one (409, nothing changes). */
export async function claimVersion(ctx: Pick<RouteContext, 'services'>, userId: string, version: number, tx: SqlClient): Promise<number> {
  const next = await ctx.services.identity.bumpVersion(userId, version, tx);
  if (next === null) throw conflict(UsersMessages.stale);
  return next;
}

/**
 * One save of a user's sub-resource (teams, quotas, permissions) in one transaction: claims the Version (409 when
 * stale), reads the resource before, applies the change, reads it after, and audits both sides. Answers the new
 * Version and the resource after the change.
 */
export async function saveSubresource<M>(
  ctx: Pick<RouteContext, 'services' | 'database' | 'audit'>,
  userId: string,
  version: number,
  op: {
    action: string;
    read: (sql: SqlClient) => Promise<M>;
    change: (tx: SqlClient) => Promise<void>;
    /** What the audit entry records of each side (the whole resource by default) and any detail beside it. */
    detail?: (before: M, after: M) => Record<string, unknown>;
  },
): Promise<{ version: number; after: M }> {
  return ctx.database.sql.transaction(async (tx) => {
    const next = await claimVersion(ctx, userId, version, tx);
    const before = await op.read(tx);
    await op.change(tx);
    const after = await op.read(tx);
    await ctx.audit({ action: op.action, entity: 'user', entityId: userId, detail: op.detail ? op.detail(before, after) : { before, after } }, tx);
    return { version: next, after };
  });
}

/** Users as the wire carries them, with company names and contact ids from this plugin's tables. */
export async function toWire(sql: SqlClient, users: readonly (UserRow | UserSummary)[], firstIndex = 0): Promise<User[]> {
  if (users.length === 0) return [];
  const companyIds = [...new Set(users.map((u) => u.company_id).filter((id): id is number => id !== null))];
  const companies = companyIds.length
    ? await sql.query<{ id: number; name: string }>('SELECT id, name FROM users_companies WHERE id = ANY($1::int[])', [companyIds])
    : [];
  const contacts = await sql.query<{ user_id: string; contact_id: number }>(
    'SELECT user_id, contact_id FROM users_user_contacts WHERE user_id = ANY($1::uuid[])',
    [users.map((u) => u.id)],
  );
  const roles = await sql.query<{ user_id: string; role: string }>('SELECT user_id, role FROM user_roles WHERE user_id = ANY($1::uuid[])', [
    users.map((u) => u.id),
  ]);
  return users.map((u, i) => ({
    Id: u.id,
    UserName: u.user_name,
    FirstName: u.first_name,
    LastName: u.last_name,
    Email: u.email,
    CompanyId: u.company_id,
    CompanyName: companies.find((c) => c.id === u.company_id)?.name ?? null,
    ContactId: contacts.find((c) => c.user_id === u.id)?.contact_id ?? null,
    Version: u.version,
    IsNew: false,
    Index: firstIndex + i,
    IsActive: u.is_active,
    IsClosed: u.closed_at !== null,
    ClosedDate: u.closed_at === null ? null : new Date(u.closed_at).toISOString(),
    Standing: standingOf(roles.filter((r) => r.user_id === u.id).map((r) => r.role)),
    IsMember: u.member_id !== null,
    MemberId: u.member_id,
    Language: u.language,
  }));
}

/**
 * Audits the read of each member's login in an answer (its name, e-mail and member id are member data): one
 * `users.member.read` row per member, batched off the request's path. Staff logins are not member data.
 */
export function auditMemberReads<T extends readonly Pick<User, 'Id' | 'MemberId'>[]>(ctx: Pick<RouteContext, 'auditRead'>, users: T): T {
  for (const u of users) {
    if (u.MemberId !== null)
      ctx.auditRead({ action: 'users.member.read', entity: 'member', entityId: String(u.MemberId), memberId: u.MemberId, detail: { userId: u.Id } });
  }
  return users;
}

export async function contactOf(sql: SqlClient, userId: string): Promise<number | null> {
  const rows = await sql.query<{ contact_id: number }>('SELECT contact_id FROM users_user_contacts WHERE user_id = $1', [userId]);
  return rows[0]?.contact_id ?? null;
}

export type { AdminRole };
