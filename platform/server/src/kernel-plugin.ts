import { dayIn, type Identity, IMPERSONATOR_ROLES, KernelRoutes, type LookupItem } from '@portal/core';
import { forgetSessions } from './auth/session';
import { issueHandoverToken, tokenRoute } from './auth/token-route';
import { identityRow } from './auth/users';
import { kernelMigrations } from './db/kernel-migrations';
import { containsPattern } from './db/search';
import { ApiError, notFound } from './http/errors';
import { defineServerPlugin, route } from './plugin';

let lookupCache: LookupItem[] | null = null;
let dbHealthy: { at: number; ok: boolean } | null = null;

/** The kernel's own routes, declared through the same contract as every plugin's. */
export const kernelPlugin = defineServerPlugin({
  id: 'kernel',
  migrations: kernelMigrations,
  routes: [
    tokenRoute,
    route(KernelRoutes.health, {
      access: 'public',
      handler: async ({ database, reply }) => {
        // A cached database ping: load balancers poll this often, the database need not answer each poll.
        if (!dbHealthy || Date.now() - dbHealthy.at > 2000) {
          const ok = await database.sql.query('SELECT 1').then(
            () => true,
            () => false,
          );
          dbHealthy = { at: Date.now(), ok };
        }
        // A process that cannot reach the database answers 503, so a load balancer sends its traffic elsewhere.
        if (!dbHealthy.ok) reply.status(503);
        return { status: dbHealthy.ok ? ('ok' as const) : ('degraded' as const), database: database.kind };
      },
    }),
    route(KernelRoutes.config, {
      access: 'public',
      handler: ({ brand, config }) => {
        const b = brand;
        return {
          Brand: b?.id ?? null,
          DisplayName: b?.displayName ?? null,
          Phone: b?.contacts.phone ?? null,
          Fax: b?.contacts.fax ?? null,
          SupportEmail: b?.contacts.supportEmail ?? null,
          InfoEmail: b?.contacts.infoEmail ?? null,
          RegisterLink: b?.registration.mode === 'external' ? b.registration.externalUrl : null,
          // Base addresses of the services the spec calls; ours answer on the same origin.
          FinanceUrl: '/api/finance/',
          PaymentUrl: '/api/payment/',
          MessagingUrl: '/api/messaging/',
          EmailUrl: '/api/email/',
          ProviderUrl: config.sandboxUrl,
        };
      },
    }),
    route(KernelRoutes.lookups, {
      access: 'authenticated',
      handler: async ({ database }) => {
        lookupCache ??= (
          await database.sql.query<{ category: string; key: number; value: string; sort: number; is_default: boolean }>(
            'SELECT category, key, value, sort, is_default FROM lookups ORDER BY category, sort',
          )
        ).map((r) => ({ Category: r.category, Key: r.key, Value: r.value, Sort: r.sort, IsDefault: r.is_default }) as LookupItem);
        return lookupCache;
      },
    }),
    route(KernelRoutes.identity, {
      access: 'authenticated',
      handler: async ({ user, database }): Promise<Identity> => {
        const u = user && (await identityRow(database.sql, user.id));
        if (!u) throw notFound('The account no longer exists.');
        return {
          Id: u.id,
          Name: u.user_name,
          DisplayName: u.display_name,
          Roles: u.roles.map((r) => ({ Id: r, Name: r })),
          MemberID: u.member_id,
          CompanyId: u.company_id,
        };
      },
    }),
    route(KernelRoutes.termination, {
      access: 'authenticated',
      handler: async ({ memberId, database, auditRead, config, services, brand }) => {
        if (memberId === null) return { isTerminated: false, terminationPeriod: 0, isMsa: false, terminationDay: null, supportPhone: null };
        // The member's termination and set-aside (MSA) status: a read of member data, audited under the member.
        auditRead({ action: 'member.termination.read', entity: 'member', entityId: memberId, memberId });
        const rows = await database.sql.query<{ termination_date: Date | null; is_msa: boolean; brand: string }>(
          'SELECT termination_date, is_msa, brand FROM members WHERE member_id = $1',
          [memberId],
        );
        const m = rows[0];
        if (!m) throw notFound('Member not found.');
        const end = m.termination_date ? new Date(m.termination_date).getTime() : null;
        // terminationPeriod: whole days until a scheduled termination takes effect (0 when none or already effective).
        const days = end === null ? 0 : Math.max(0, Math.ceil((end - Date.now()) / 86_400_000));
        // terminationDay (ours, not in the spec): the business's calendar day it ends or ended on, for staff's banner.
        return {
          isTerminated: end !== null && end <= Date.now(),
          terminationPeriod: days,
          isMsa: m.is_msa,
          terminationDay: end === null ? null : dayIn(config.businessTimeZone, new Date(end)),
          // supportPhone (ours): the phone of the member's brand, the one their letters and refusals give, also when they
          // sign in on another brand's site (the site's brand only for a member of a brand this API does not serve).
          supportPhone: (services.brands.byId(m.brand) ?? brand)?.contacts.phone.trim() || null,
        };
      },
    }),
    route(KernelRoutes.memberByNumber, {
      // Staff who may act for a member find the member by the number the lists show (as typed: any letter case).
      access: IMPERSONATOR_ROLES,
      handler: async ({ params, database, services, auditRead }) => {
        // Any letter case: the stored folded text (lower case, its trigram index) finds the candidates, the number decides.
        const rows = await database.sql.query<{ member_id: number }>(
          'SELECT member_id FROM members WHERE search_text LIKE $2 AND lower(member_number) = lower($1) ORDER BY member_id LIMIT 1',
          [params.number, containsPattern(params.number.toLowerCase())],
        );
        const memberId = rows[0]?.member_id;
        // Only a member account is one to act for (as the impersonation header itself requires).
        if (memberId === undefined || !(await services.members.isMemberAccount(memberId))) throw notFound('No member account has that member number.');
        auditRead({ action: 'member.lookup.number', entity: 'member', entityId: memberId, memberId });
        return { MemberID: memberId };
      },
    }),
    route(KernelRoutes.signout, {
      access: 'authenticated',
      // Ending its own session is the one change an access token may make alone: a tab holding a token handed over in
      // the address (/t/:token, /activated/:token) has no form token, and must still be able to sign out.
      noFormToken: true,
      handler: async ({ user, database, audit }) => {
        if (!user) return null;
        await database.sql.query("UPDATE sessions SET revoked_at = now(), revoke_reason = 'signout' WHERE id = $1 AND revoked_at IS NULL", [user.sessionId]);
        forgetSessions({ sessionId: user.sessionId });
        await audit({ action: 'signout', entity: 'session', entityId: user.sessionId, memberId: user.memberId });
        return null;
      },
    }),
    route(KernelRoutes.language, {
      access: 'authenticated',
      // The user's own choice, for their own account: staff acting for a member change only their own language (the
      // member's mail follows the member's). Only a change is written.
      handler: async ({ user, database, body }) => {
        if (!user) throw new ApiError(401, 'Please sign in to continue.');
        await database.sql.query('UPDATE users SET language = $2 WHERE id = $1 AND language IS DISTINCT FROM $2', [user.id, body.Language]);
        return null;
      },
    }),
    route(KernelRoutes.handover, {
      access: 'authenticated',
      // POST: the session's anti-forgery token is required, so an access token taken alone cannot ask for one.
      handler: async ({ user, database, config, audit, req }) => {
        if (!user) throw new ApiError(401, 'Please sign in to continue.');
        const made = await issueHandoverToken(database.sql, config, user.id, user.sessionId, req.ip);
        if (!made) throw new ApiError(401, 'Your session has expired. Please sign in again.');
        await audit({ action: 'session.handover', entity: 'session', entityId: made.sessionId, memberId: user.memberId, detail: { from: user.sessionId } });
        return { Token: made.Token, ExpiresIn: made.ExpiresIn };
      },
    }),
  ],
});
