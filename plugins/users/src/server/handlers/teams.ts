import { badRequest, conflict, forbidden, notFound, type RouteContext, route, type SqlClient, withMessage } from '@portal/server';
import { USERS_ACCESS } from '../../access';
import { TeamsApi, UsersMessages } from '../../contract';
import { rankOf, standingOf } from '../../rules';
import { isUniqueViolation, requireChange } from '../common';

interface TeamRow {
  id: number;
  name: string;
  company_id: number;
  version: number;
}
const toTeam = (r: TeamRow) => ({ Id: r.id, TeamName: r.name, CompanyId: r.company_id, Version: r.version });
const COLUMNS = 'id, name, company_id, version';

/**
 * The team's members (user ids), refusing (403) a caller outranked by any of them: renaming or deleting a team changes
 * each member's teams, which only someone of their standing may do (as removing them from it directly).
 */
async function membersNotAbove(ctx: Pick<RouteContext, 'services'>, tx: SqlClient, teamId: number, mine: readonly string[]): Promise<string[]> {
  const members = (await tx.query<{ user_id: string }>('SELECT user_id FROM users_team_members WHERE team_id = $1 ORDER BY user_id', [teamId])).map(
    (m) => m.user_id,
  );
  for (const id of members) if (standingOf(await ctx.services.identity.rolesOf(id, tx)) > rankOf(mine)) throw forbidden(UsersMessages.teamOutranked);
  return members;
}

/**
 * Teams of a company: list, read, create or rename, delete (with their assignments); renames and deletes name the Version
 * they saw, and a create sent again with its IdempotencyKey answers the team it added.
 */
export const teamRoutes = [
  route(TeamsApi.get, {
    access: USERS_ACCESS,
    handler: async ({ params, database }) => {
      if (!(await database.sql.query('SELECT 1 FROM users_companies WHERE id = $1', [params.companyId])).length) throw notFound(UsersMessages.unknownCompany);
      const rows = await database.sql.query<TeamRow>(`SELECT ${COLUMNS} FROM users_teams WHERE company_id = $1 ORDER BY lower(name), id`, [params.companyId]);
      return rows.map(toTeam);
    },
  }),
  route(TeamsApi.getById, {
    access: USERS_ACCESS,
    handler: async ({ params, database }) => {
      const row = (await database.sql.query<TeamRow>(`SELECT ${COLUMNS} FROM users_teams WHERE id = $1`, [params.id]))[0];
      if (!row) throw notFound(UsersMessages.teamNotFound);
      return toTeam(row);
    },
  }),
  route(TeamsApi.save, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { body, database } = ctx;
      const mine = await requireChange(ctx, null, 'teams');
      if (body.Id && body.Version === undefined) throw badRequest(UsersMessages.teamVersionRequired);
      if (!(await database.sql.query('SELECT 1 FROM users_companies WHERE id = $1', [body.CompanyId])).length) throw badRequest(UsersMessages.unknownCompany);
      // A create sent again with its IdempotencyKey (its answer lost) answers the team it added, and adds nothing.
      const key = !body.Id && body.IdempotencyKey && ctx.user ? { userId: ctx.user.id, scope: 'users.team', key: body.IdempotencyKey } : null;
      try {
        const saved = await database.sql.transaction(async (tx) => {
          if (!body.Id) {
            if (key) {
              const earlier = await ctx.services.createKeys.claim(tx, key, body);
              if (earlier !== null) {
                // The team as it is now; deleted since, it is gone.
                const made = (await tx.query<TeamRow>(`SELECT ${COLUMNS} FROM users_teams WHERE id = $1`, [Number(earlier)]))[0];
                if (!made) throw notFound(UsersMessages.teamNotFound);
                return made;
              }
            }
            const row = (
              await tx.query<TeamRow>(`INSERT INTO users_teams (company_id, name) VALUES ($1, $2) RETURNING ${COLUMNS}`, [body.CompanyId, body.TeamName])
            )[0];
            if (!row) throw new Error('team insert returned nothing');
            await ctx.audit({ action: 'users.team.create', entity: 'team', entityId: row.id, detail: { before: null, after: toTeam(row) } }, tx);
            if (key) await ctx.services.createKeys.record(tx, key, row.id);
            return row;
          }
          const before = (await tx.query<TeamRow>(`SELECT ${COLUMNS} FROM users_teams WHERE id = $1 FOR UPDATE`, [body.Id]))[0];
          if (!before) throw notFound(UsersMessages.teamNotFound);
          // A team stays with its company: its members are people of that company.
          if (before.company_id !== body.CompanyId) throw badRequest(UsersMessages.teamCompanyMismatch);
          if (before.version !== body.Version) throw conflict(UsersMessages.teamStale);
          await membersNotAbove(ctx, tx, before.id, mine);
          const row = (
            await tx.query<TeamRow>(`UPDATE users_teams SET name = $2, version = version + 1 WHERE id = $1 RETURNING ${COLUMNS}`, [body.Id, body.TeamName])
          )[0];
          if (!row) throw notFound(UsersMessages.teamNotFound);
          await ctx.audit({ action: 'users.team.update', entity: 'team', entityId: row.id, detail: { before: toTeam(before), after: toTeam(row) } }, tx);
          return row;
        });
        return withMessage(toTeam(saved), UsersMessages.teamSaved);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(UsersMessages.teamNameTaken(body.TeamName));
        throw e;
      }
    },
  }),
  route(TeamsApi.delete, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { body, database } = ctx;
      const mine = await requireChange(ctx, null, 'teams');
      const deleted = await database.sql.transaction(async (tx) => {
        const current = (await tx.query<TeamRow>(`SELECT ${COLUMNS} FROM users_teams WHERE id = $1 FOR UPDATE`, [body.Id]))[0];
        if (!current) throw notFound(UsersMessages.teamNotFound);
        if (current.version !== body.Version) throw conflict(UsersMessages.teamStale);
        const members = await membersNotAbove(ctx, tx, current.id, mine);
        const row = (await tx.query<TeamRow>(`DELETE FROM users_teams WHERE id = $1 RETURNING ${COLUMNS}`, [body.Id]))[0];
        if (!row) throw notFound(UsersMessages.teamNotFound);
        // Each member's teams changed: their Version moves, so a page open on them learns of it.
        for (const id of members) {
          const u = await ctx.services.identity.findById(id, tx);
          if (u) await ctx.services.identity.bumpVersion(id, u.version, tx);
        }
        await ctx.audit(
          {
            action: 'users.team.delete',
            entity: 'team',
            entityId: row.id,
            detail: { before: { ...toTeam(row), members }, after: null },
          },
          tx,
        );
        return row;
      });
      return withMessage({ Id: deleted.id }, UsersMessages.teamDeleted(deleted.name));
    },
  }),
];
