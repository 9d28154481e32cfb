import { accountService } from '@portal/plugin-account/service';
import { badRequest, conflict, hashPassword, notFound, type RouteContext, randomToken, route, withMessage } from '@portal/server';
import { USERS_ACCESS } from '../../access';
import { UsersApi, UsersMessages } from '../../contract';
import { auditMemberReads, caller, isUniqueViolation, loadUser, requireChange, toWire } from '../common';

interface ContactRow {
  id: number;
  company_id: number;
  first_name: string;
  last_name: string;
  email: string;
}

/**
 * Queues the account plugin's "your sign-in name is now …" notice to the old and new address. Resolves whether it was
 * queued; a failure is logged and audited.
 */
async function noticeNewName(ctx: RouteContext, userId: string, change: { oldName: string; oldEmail: string | null; newName: string }): Promise<boolean> {
  try {
    if (!ctx.brand) return false;
    const me = caller(ctx);
    await ctx
      .use(accountService)
      .sendSignInNameNotice(
        userId,
        change,
        { brand: ctx.brand, host: String(ctx.req.headers.host ?? ''), protocol: ctx.req.protocol },
        { userId: me.id, name: me.name },
      );
    return true;
  } catch (e) {
    ctx.req.log.error({ err: e }, 'sign-in name notice failed');
    await ctx.audit({
      action: 'users.user.name-notice',
      outcome: 'failure',
      entity: 'user',
      entityId: userId,
      detail: { ...change, error: (e as Error).message },
    });
    return false;
  }
}

/** The user list, a user, saving one (from a company contact), activation, and the company and contact pickers. */
export const userRoutes = [
  route(UsersApi.get, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { query, services, database } = ctx;
      const f = query.filter;
      let companyIds: number[] | undefined;
      if (f.CompanyName) {
        const rows = await database.sql.query<{ id: number }>('SELECT id FROM users_companies WHERE strpos(lower(name), lower($1)) > 0', [f.CompanyName]);
        companyIds = rows.map((r) => r.id);
      }
      const offset = (query.pageNum - 1) * query.pageSize;
      // A Role filter that names no role (roleKeysOf), as a company filter that names no company, finds no one.
      const { rows, total } =
        companyIds?.length === 0 || f.Role?.length === 0
          ? { rows: [], total: 0 }
          : await services.identity.searchUsers({
              userName: f.UserName || undefined,
              firstName: f.FirstName || undefined,
              lastName: f.LastName || undefined,
              companyIds,
              role: f.Role,
              sort: query.sort,
              sortDir: query.sortDir,
              limit: query.pageSize,
              offset,
            });
      return { Items: auditMemberReads(ctx, await toWire(database.sql, rows, offset)), ItemCount: total };
    },
  }),
  route(UsersApi.getById, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const [user] = await toWire(ctx.database.sql, [await loadUser(ctx, ctx.params.id)]);
      if (!user) throw notFound(UsersMessages.notFound);
      auditMemberReads(ctx, [user]);
      return user;
    },
  }),
  route(UsersApi.getByRole, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const { params, services, database } = ctx;
      const { rows } = await services.identity.searchUsers({ role: params.role, sort: 'UserName', sortDir: 'asc', limit: 500, offset: 0 });
      return auditMemberReads(ctx, await toWire(database.sql, rows));
    },
  }),
  route(UsersApi.save, {
    access: USERS_ACCESS,
    /*
     * A new user is made from a company contact: UserName and e-mail are the contact's e-mail, the account
     * starts inactive with an unusable password until the user activates it from the e-mailed link.
     * Changing a user needs its Version and a rank at least the user's. A new user's save sent again with the same
     * IdempotencyKey answers the user the first one added (as it is now), writing nothing.
     */
    handler: async (ctx) => {
      const { body, database, services } = ctx;
      const { sql } = database;
      const contact = (
        await sql.query<ContactRow>('SELECT id, company_id, first_name, last_name, email FROM users_contacts WHERE id = $1', [body.ContactId])
      )[0];
      const company = (await sql.query<{ id: number }>('SELECT id FROM users_companies WHERE id = $1', [body.CompanyId]))[0];
      if (!company) throw badRequest(UsersMessages.unknownCompany);
      if (!contact || contact.company_id !== body.CompanyId) throw badRequest(UsersMessages.contactNotInCompany);
      const userName = contact.email;
      try {
        if (!body.Id) {
          await requireChange(ctx, null, null);
          if (!ctx.brand) throw notFound();
          const brand = ctx.brand.id;
          const passwordHash = await hashPassword(randomToken(32));
          // The activation e-mail goes out in the language chosen for the user, else the caller's.
          const language = body.Language ?? ctx.language;
          // A save sent again with its IdempotencyKey (its answer lost) answers the user it added, and adds nothing.
          const key = body.IdempotencyKey && ctx.user ? { userId: ctx.user.id, scope: 'users.user', key: body.IdempotencyKey } : null;
          const id = await sql.transaction(async (tx) => {
            if (key) {
              const earlier = await services.createKeys.claim(tx, key, body);
              if (earlier !== null) return earlier;
            }
            const userId = await services.identity.createUser(
              {
                userName,
                passwordHash,
                firstName: body.FirstName,
                lastName: body.LastName,
                email: contact.email,
                brand,
                companyId: body.CompanyId,
                roles: [],
                isActive: false,
                language,
              },
              tx,
            );
            await tx.query('INSERT INTO users_user_contacts (user_id, contact_id) VALUES ($1, $2)', [userId, contact.id]);
            await ctx.audit(
              {
                action: 'users.user.create',
                entity: 'user',
                entityId: userId,
                detail: {
                  before: null,
                  after: { userName, firstName: body.FirstName, lastName: body.LastName, companyId: body.CompanyId, contactId: contact.id, brand, language },
                },
              },
              tx,
            );
            if (key) await services.createKeys.record(tx, key, userId);
            return userId;
          });
          const [saved] = await toWire(sql, [await loadUser(ctx, id)]);
          if (!saved) throw notFound(UsersMessages.notFound);
          return withMessage(saved, UsersMessages.saved);
        }
        const userId = body.Id;
        const target = await loadUser(ctx, userId);
        await requireChange(ctx, target, null);
        if (body.Version === undefined) throw badRequest('Version is required to change a user.');
        const version = body.Version;
        // The user name follows the contact's e-mail: a new one is the user's new sign-in name.
        const renamed = target.user_name.toLowerCase() !== userName.toLowerCase();
        await sql.transaction(async (tx) => {
          const contactBefore = (await tx.query<{ contact_id: number }>('SELECT contact_id FROM users_user_contacts WHERE user_id = $1', [userId]))[0];
          const next = await services.identity.updateUser(
            userId,
            version,
            { userName, firstName: body.FirstName, lastName: body.LastName, email: contact.email, companyId: body.CompanyId, language: body.Language },
            tx,
          );
          if (next === null) throw conflict(UsersMessages.stale);
          // The activation and reset links mailed to the old address end with it: its holder must not activate or
          // reset the login now signed in with the new name (the next activation goes to the new address).
          const endedLinks = renamed ? await ctx.use(accountService).endAccessLinks(userId, tx) : 0;
          await tx.query(
            `INSERT INTO users_user_contacts (user_id, contact_id) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET contact_id = EXCLUDED.contact_id`,
            [userId, contact.id],
          );
          // Teams belong to a company: a user moved to another company leaves the teams of the old one.
          const leftTeams = await tx.query<{ team_id: number }>(
            `DELETE FROM users_team_members m USING users_teams t
             WHERE m.user_id = $1 AND t.id = m.team_id AND t.company_id <> $2 RETURNING m.team_id`,
            [userId, body.CompanyId],
          );
          await ctx.audit(
            {
              action: 'users.user.update',
              entity: 'user',
              entityId: userId,
              detail: {
                before: {
                  userName: target.user_name,
                  firstName: target.first_name,
                  lastName: target.last_name,
                  companyId: target.company_id,
                  contactId: contactBefore?.contact_id ?? null,
                  language: target.language,
                  version,
                },
                after: {
                  userName,
                  firstName: body.FirstName,
                  lastName: body.LastName,
                  companyId: body.CompanyId,
                  contactId: contact.id,
                  language: body.Language ?? target.language,
                  version: next,
                },
                leftTeams: leftTeams.map((t) => t.team_id),
                ...(endedLinks ? { endedLinks } : {}),
              },
            },
            tx,
          );
        });
        // A new sign-in name: both addresses are told (the user, who would otherwise meet "incorrect" at the next
        // sign-in, and the mailbox that now gets the login's resets); the save stands even if the notice cannot be queued.
        const noticed = renamed && (await noticeNewName(ctx, userId, { oldName: target.user_name, oldEmail: target.email, newName: userName }));
        const [saved] = await toWire(sql, [await loadUser(ctx, userId)]);
        if (!saved) throw notFound(UsersMessages.notFound);
        return withMessage(saved, noticed ? UsersMessages.savedNewName(userName) : UsersMessages.saved);
      } catch (e) {
        // Another user already has this contact's e-mail as user name (the kernel's unique index).
        if (isUniqueViolation(e)) throw conflict(UsersMessages.nameTaken(userName));
        throw e;
      }
    },
  }),
  route(UsersApi.activate, {
    access: USERS_ACCESS,
    handler: async (ctx) => {
      const target = await loadUser(ctx, ctx.body.Id);
      if (!ctx.brand) throw notFound();
      const me = caller(ctx);
      const { sentTo } = await ctx
        .use(accountService)
        .sendActivation(
          target.id,
          { brand: ctx.brand, host: String(ctx.req.headers.host ?? ''), protocol: ctx.req.protocol },
          { userId: me.id, name: me.name },
        );
      await ctx.audit({ action: 'users.activation.send', entity: 'user', entityId: target.id, detail: { to: sentTo } });
      return withMessage({ SentTo: sentTo }, UsersMessages.activationSent(sentTo));
    },
  }),
  route(UsersApi.companies, {
    access: USERS_ACCESS,
    handler: async ({ database }) => {
      const rows = await database.sql.query<{ id: number; name: string }>('SELECT id, name FROM users_companies ORDER BY lower(name), id');
      return rows.map((r) => ({ Id: r.id, Name: r.name }));
    },
  }),
  route(UsersApi.companyContacts, {
    access: USERS_ACCESS,
    handler: async ({ params, database }) => {
      const company = await database.sql.query('SELECT 1 FROM users_companies WHERE id = $1', [params.companyId]);
      if (!company.length) throw notFound(UsersMessages.unknownCompany);
      const rows = await database.sql.query<ContactRow>(
        'SELECT id, company_id, first_name, last_name, email FROM users_contacts WHERE company_id = $1 ORDER BY lower(last_name), lower(first_name), id',
        [params.companyId],
      );
      return rows.map((r) => ({ Id: r.id, FirstName: r.first_name, LastName: r.last_name, Email: r.email }));
    },
  }),
];
