import { badRequest, forbidden, notFound, route, type SqlClient, withMessage } from '@portal/server';
import { USERS_ACCESS } from '../../access';
import { type Quota, UsersApi, UsersMessages } from '../../contract';
import {
  conflictMessage,
  heldPermissions,
  isRoleKey,
  PERMISSION_CATALOGUE,
  ROLE_CATALOGUE,
  ROLE_KEYS,
  ROLE_RANK,
  rankOf,
  roleConflicts,
  roleKeyOf,
} from '../../rules';
import { caller, claimVersion, contactOf, loadUser, requireChange, saveSubresource } from '../common';
import { markPermissionsSaved, savedPermissionIds } from '../permissions';

async function teamsOf(sql: SqlClient, userId: string) {
  const rows = await sql.query<{ id: number; name: string }>(
    `SELECT t.id, t.name FROM users_team_members m JOIN users_teams t ON t.id = m.team_id WHERE m.user_id = $1 ORDER BY lower(t.name), t.id`,
    [userId],
  );
  return rows.map((r) => ({ Id: r.id, TeamName: r.name }));
}

/** Twelve months; a month without a stored quota has both numbers null. */
async function quotasOf(sql: SqlClient, userId: string): Promise<Quota[]> {
  const rows = await sql.query<{ month_number: number; min_cases: number; max_cases: number }>(
    'SELECT month_number, min_cases, max_cases FROM users_quotas WHERE user_id = $1',
    [userId],
  );
  return Array.from({ length: 12 }, (_, i) => {
    const row = rows.find((r) => r.month_number === i + 1);
    return { MonthNumber: i + 1, MinimumCases: row?.min_cases ?? null, MaximumCases: row?.max_cases ?? null };
  });
}

async function rolesModel(sql: SqlClient, roles: readonly string[], userId: string) {
  return {
    ContactId: await contactOf(sql, userId),
    Roles: ROLE_CATALOGUE.map((r) => ({ Id: r.Id, Key: r.Key, IsSelected: roles.includes(r.Key) })),
  };
}

/** The catalogue with what the user holds selected: everything while their permissions were never saved (heldPermissions). */
async function permissionsOf(sql: SqlClient, userId: string) {
  const held = heldPermissions(await savedPermissionIds(sql, userId));
  return PERMISSION_CATALOGUE.map((p) => ({ Id: p.Id, Key: p.Key, IsSelected: held.includes(p.Key) }));
}

/** Rolls back a team assignment that would be a duplicate. */
const ALREADY_ASSIGNED = new Error('already assigned');

interface TeamRow {
  id: number;
  name: string;
  company_id: number;
}

/** Checks a team change: the team exists, CompanyId is its company, and it is the user's company. */
async function teamFor(sql: SqlClient, userCompany: number | null, models: { CompanyId: number; Team: { Id: number } }): Promise<TeamRow> {
  const team = (await sql.query<TeamRow>('SELECT id, name, company_id FROM users_teams WHERE id = $1', [models.Team.Id]))[0];
  if (!team) throw notFound(UsersMessages.teamNotFound);
  if (team.company_id !== models.CompanyId) throw badRequest(UsersMessages.teamCompanyMismatch);
  if (userCompany === null) throw badRequest(UsersMessages.noCompany);
  if (team.company_id !== userCompany) throw badRequest(UsersMessages.teamOtherCompany);
  return team;
}

/** A user's teams, quotas, roles and permissions: each read as {Id, Version, Models} and saved with that envelope. */
export const subresourceRoutes = [
  route(UsersApi.teamGet, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const user = await loadUser(ctx, ctx.params.userId);
      return { Id: user.id, Version: user.version, Models: await teamsOf(ctx.database.sql, user.id) };
    },
  }),
  route(UsersApi.teamAdd, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { body, database } = ctx;
      const user = await loadUser(ctx, body.Id);
      await requireChange(ctx, user, 'teams');
      const team = await teamFor(database.sql, user.company_id, body.Models);
      const result = await database.sql
        .transaction(async (tx) => {
          const before = await teamsOf(tx, user.id);
          // A team is assigned once: a second assignment inserts nothing, and the rollback keeps the Version as it was.
          const added = await tx.query('INSERT INTO users_team_members (user_id, team_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING team_id', [
            user.id,
            team.id,
          ]);
          if (added.length === 0) throw ALREADY_ASSIGNED;
          const version = await claimVersion(ctx, user.id, body.Version, tx);
          const after = await teamsOf(tx, user.id);
          await ctx.audit({ action: 'users.team.add', entity: 'user', entityId: user.id, detail: { team: team.id, before, after } }, tx);
          return { version, after };
        })
        .catch((e: unknown) => {
          if (e === ALREADY_ASSIGNED) return null;
          throw e;
        });
      if (!result) {
        const current = await loadUser(ctx, user.id);
        return withMessage({ Id: user.id, Version: current.version, Models: await teamsOf(database.sql, user.id) }, UsersMessages.teamAlready(team.name));
      }
      return withMessage({ Id: user.id, Version: result.version, Models: result.after }, UsersMessages.teamAdded(team.name));
    },
  }),
  route(UsersApi.teamRemove, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { body, database } = ctx;
      const user = await loadUser(ctx, body.Id);
      await requireChange(ctx, user, 'teams');
      const team = (await database.sql.query<TeamRow>('SELECT id, name, company_id FROM users_teams WHERE id = $1', [body.Models.Team.Id]))[0];
      if (!team) throw notFound(UsersMessages.teamNotFound);
      if (team.company_id !== body.Models.CompanyId) throw badRequest(UsersMessages.teamCompanyMismatch);
      const result = await saveSubresource(ctx, user.id, body.Version, {
        action: 'users.team.remove',
        read: (sql) => teamsOf(sql, user.id),
        change: async (tx) => {
          const removed = await tx.query('DELETE FROM users_team_members WHERE user_id = $1 AND team_id = $2 RETURNING team_id', [user.id, team.id]);
          if (removed.length === 0) throw badRequest(UsersMessages.teamNotAssigned(team.name));
        },
        detail: (before, after) => ({ team: team.id, before, after }),
      });
      return withMessage({ Id: user.id, Version: result.version, Models: result.after }, UsersMessages.teamRemoved(team.name));
    },
  }),
  route(UsersApi.quotaGet, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const user = await loadUser(ctx, ctx.params.userId);
      return { Id: user.id, Version: user.version, Models: await quotasOf(ctx.database.sql, user.id) };
    },
  }),
  route(UsersApi.quotaSave, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { body } = ctx;
      const user = await loadUser(ctx, body.Id);
      await requireChange(ctx, user, 'quotas');
      const months = new Set(body.Models.map((q) => q.MonthNumber));
      const pick = (list: Quota[]) => list.filter((q) => months.has(q.MonthNumber));
      const result = await saveSubresource(ctx, user.id, body.Version, {
        action: 'users.quota.save',
        read: (sql) => quotasOf(sql, user.id),
        change: async (tx) => {
          for (const q of body.Models) {
            if (q.MinimumCases === null || q.MaximumCases === null) {
              await tx.query('DELETE FROM users_quotas WHERE user_id = $1 AND month_number = $2', [user.id, q.MonthNumber]);
            } else {
              await tx.query(
                `INSERT INTO users_quotas (user_id, month_number, min_cases, max_cases) VALUES ($1, $2, $3, $4)
               ON CONFLICT (user_id, month_number) DO UPDATE SET min_cases = EXCLUDED.min_cases, max_cases = EXCLUDED.max_cases`,
                [user.id, q.MonthNumber, q.MinimumCases, q.MaximumCases],
              );
            }
          }
        },
        detail: (before, after) => ({ before: pick(before), after: pick(after) }),
      });
      return withMessage({ Id: user.id, Version: result.version, Models: result.after }, UsersMessages.quotasSaved);
    },
  }),
  route(UsersApi.roleGet, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const user = await loadUser(ctx, ctx.params.userId);
      const roles = await ctx.services.identity.rolesOf(user.id);
      return { Id: user.id, Version: user.version, Models: await rolesModel(ctx.database.sql, roles, user.id) };
    },
  }),
  route(UsersApi.roleSave, {
    access: USERS_ACCESS,
    /*
     * The set sent must keep the exclusivity rules: a forbidden combination is refused with the rules it
     * breaks, never rewritten. Nobody changes their own roles, grants or removes a role ranked above their
     * own, or changes a user who outranks them.
     */
    handler: async (ctx) => {
      const { body, database, services } = ctx;
      const user = await loadUser(ctx, body.Id);
      const mine = await requireChange(ctx, user, 'roles');
      if (user.id === caller(ctx).id) throw forbidden(UsersMessages.ownRoles);
      if (body.Models.ContactId != null && body.Models.ContactId !== (await contactOf(database.sql, user.id))) throw badRequest(UsersMessages.contactMismatch);
      const keys = [...new Set(body.Models.Roles.map(roleKeyOf))];
      if (keys.some((k) => k === null)) throw badRequest(UsersMessages.unknownRole);
      const wanted = ROLE_KEYS.filter((k) => keys.includes(k));
      const conflicts = roleConflicts(wanted);
      if (conflicts.length) {
        await ctx.audit({ action: 'users.role.save', outcome: 'refused', entity: 'user', entityId: user.id, detail: { wanted, reason: 'exclusivity' } });
        throw badRequest(conflictMessage(conflicts));
      }
      const held = (await services.identity.rolesOf(user.id)).filter(isRoleKey);
      const changed = ROLE_KEYS.filter((k) => held.includes(k) !== wanted.includes(k));
      const tooHigh = changed.filter((k) => ROLE_RANK[k] > rankOf(mine));
      if (tooHigh.length) {
        await ctx.audit({
          action: 'users.role.save',
          outcome: 'refused',
          entity: 'user',
          entityId: user.id,
          detail: { wanted, reason: 'escalation', tooHigh },
        });
        throw forbidden(UsersMessages.higherRole(tooHigh));
      }
      const version = await database.sql.transaction(async (tx) => {
        const next = await claimVersion(ctx, user.id, body.Version, tx);
        const before = await services.identity.setRoles(user.id, wanted, ROLE_KEYS, tx);
        await ctx.audit({ action: 'users.role.save', entity: 'user', entityId: user.id, detail: { before, after: wanted } }, tx);
        return next;
      });
      return withMessage({ Id: user.id, Version: version, Models: await rolesModel(database.sql, wanted, user.id) }, UsersMessages.rolesSaved);
    },
  }),
  route(UsersApi.permissionGet, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const user = await loadUser(ctx, ctx.params.userId);
      return { Id: user.id, Version: user.version, Models: await permissionsOf(ctx.database.sql, user.id) };
    },
  }),
  route(UsersApi.permissionSave, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { body } = ctx;
      const user = await loadUser(ctx, body.Id);
      await requireChange(ctx, user, 'permissions');
      const ids = [...new Set(body.Models)];
      if (ids.some((id) => !PERMISSION_CATALOGUE.some((p) => p.Id === id))) throw badRequest(UsersMessages.unknownPermission);
      const selected = (list: { Key: string; IsSelected: boolean }[]) => list.filter((p) => p.IsSelected).map((p) => p.Key);
      const result = await saveSubresource(ctx, user.id, body.Version, {
        action: 'users.permission.save',
        read: (sql) => permissionsOf(sql, user.id),
        change: async (tx) => {
          await tx.query('DELETE FROM users_permissions WHERE user_id = $1', [user.id]);
          for (const id of ids) await tx.query('INSERT INTO users_permissions (user_id, permission_id) VALUES ($1, $2)', [user.id, id]);
          await markPermissionsSaved(tx, user.id);
        },
        detail: (before, after) => ({ before: selected(before), after: selected(after) }),
      });
      return withMessage({ Id: user.id, Version: result.version, Models: result.after }, UsersMessages.permissionsSaved);
    },
  }),
];
