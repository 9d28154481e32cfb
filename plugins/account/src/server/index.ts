import { randomInt } from 'node:crypto';
import { type BrandManifest, MEMBER_ROLES, type Role } from '@portal/core';
import {
  ApiError,
  badRequest,
  conflict,
  createUser,
  defineServerPlugin,
  findUserById,
  findUserByName,
  forbidden,
  forgetSessions,
  hashPassword,
  type MailMessage,
  notFound,
  type RouteContext,
  route,
  type SqlClient,
  verifyPassword,
  withMessage,
} from '@portal/server';
import {
  AccountApi,
  AccountMessages,
  activateRequest,
  type LinkInfo,
  REGISTRATION_COMPLETE_STEP,
  type RegisterResponse,
  registeredQuery,
  registerRequest,
  registerStatusQuery,
  resetPasswordRequest,
  resetSendEmailRequest,
  type SecurityQuestion,
  updateEmailQuery,
  updatePasswordRequest,
  updateQuestionsRequest,
  urlIdParams,
} from '../contract';
import { findLiveLink, issueLink, spendLink } from './links';
import { activationMail, resetMail } from './mail-templates';
import { accountMigrations } from './migrations';
import { PASSWORD_RULES, passwordProblems, policyMessage } from './policy';
import { ACCOUNT_THROTTLE, clearThrottle, enforce, recordThrottleEvent, secondsToWait } from './throttle';

const Text = {
  nameTaken: (name: string) => `The user name ${name} is already registered. Please sign in, or use Forgot Password if you do not remember your password.`,
  tooManyRegistrations: (min: number) => `Too many registration attempts. Please try again in ${min} minute(s).`,
  tooManyResetMails: (min: number) => `Too many password e-mails were requested. Please try again in ${min} minute(s).`,
  tooManyPasswordFailures: (min: number) => `Too many failed password changes. Please try again in ${min} minute(s).`,
  passwordsDiffer: 'The password and its confirmation do not match.',
  unknownQuestion: 'Please choose two different questions from the list of security questions.',
  activationMailFailed: 'Your account was created, but the activation e-mail could not be sent. Please use Forgot Password to receive a new activation link.',
  oldPasswordWrong: 'The current password is incorrect.',
  samePassword: 'The new password must be different from the current password.',
  questionsSaved: 'Your security questions have been saved.',
  emailUpdated: 'Your e-mail address has been updated.',
  impersonatedEmail: "While acting for a member, change the e-mail address on the member's profile.",
  noSite: 'Registration is not available on this site.',
};

const isUniqueViolation = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';

/** Answers compare ignoring case, surrounding and repeated spaces. */
const normalizeAnswer = (a: string) => a.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The brand site's own address for e-mailed links: the Host the request came on when it is the brand's
 * <marker>.localhost host, else http://<marker>.localhost:<port>. Any other Host (which a caller controls)
 * is never put into a link, so a forged Host cannot point a reset mail at another site.
 */
export function siteAddress(ctx: Pick<RouteContext, 'req' | 'config'>, brand: BrandManifest): string {
  const host = String(ctx.req.headers.host ?? '').toLowerCase();
  const m = /^([a-z0-9-]+)\.localhost(:\d{1,5})?$/.exec(host);
  if (m && m[1] === brand.marker) return `${ctx.req.protocol}://${host}`;
  return `http://${brand.marker}.localhost:${ctx.config.port}`;
}

function requireBrand(ctx: RouteContext): BrandManifest {
  // Feature plugin routes only answer on a brand's host; this guards the type.
  if (!ctx.brand) throw notFound(Text.noSite);
  return ctx.brand;
}

function checkNewPassword(password: string, confirm: string): void {
  if (password !== confirm) throw badRequest(Text.passwordsDiffer);
  const problems = passwordProblems(password);
  if (problems.length) throw badRequest(policyMessage(problems));
}

async function questionCatalogue(sql: SqlClient): Promise<SecurityQuestion[]> {
  const rows = await sql.query<{ id: number; text: string }>('SELECT id, text FROM account_security_questions ORDER BY sort');
  return rows.map((r) => ({ Id: r.id, Text: r.text }));
}

/** Checks the chosen questions exist and hashes the answers (before any transaction: scrypt is slow). */
async function hashAnswers(sql: SqlClient, answers: readonly { Id: number; AnswerText: string }[]) {
  const ids = answers.map((a) => a.Id);
  const known = await sql.query<{ id: number }>('SELECT id FROM account_security_questions WHERE id = ANY($1::int[])', [ids]);
  if (known.length !== new Set(ids).size || new Set(ids).size !== answers.length) throw badRequest(Text.unknownQuestion);
  return Promise.all(answers.map(async (a) => ({ id: a.Id, hash: await hashPassword(normalizeAnswer(a.AnswerText)) })));
}

async function saveAnswers(tx: SqlClient, userId: string, hashed: readonly { id: number; hash: string }[]) {
  await tx.query('DELETE FROM account_security_answers WHERE user_id = $1', [userId]);
  for (const a of hashed) {
    await tx.query('INSERT INTO account_security_answers (user_id, question_id, answer_hash) VALUES ($1, $2, $3)', [userId, a.id, a.hash]);
  }
}

/** A member record for a newly registered member; the member number is random and unique. */
async function insertMember(tx: SqlClient, brand: string, firstName: string, lastName: string, email: string) {
  for (let attempt = 0; attempt < 8; attempt++) {
    const memberNumber = `R${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
    const rows = await tx.query<{ member_id: number }>(
      `INSERT INTO members (member_number, brand, first_name, last_name, email) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (member_number) DO NOTHING RETURNING member_id`,
      [memberNumber, brand, firstName, lastName, email],
    );
    const memberId = rows[0]?.member_id;
    if (memberId !== undefined) return { memberId, memberNumber };
  }
  throw new Error('could not generate a unique member number');
}

async function revokeSessions(sql: SqlClient, userId: string, reason: string, keepSessionId: string | null = null) {
  await sql.query(
    `UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
    [userId, reason, keepSessionId],
  );
  forgetSessions({ userId });
}

async function send(ctx: RouteContext, message: MailMessage): Promise<void> {
  await ctx.services.mail.send(message);
}

export default defineServerPlugin({
  id: 'account',
  migrations: accountMigrations,
  routes: [
    // ---- registration ------------------------------------------------------------------------
    route({
      method: 'POST',
      url: AccountApi.register,
      access: 'public',
      noFormToken: true,
      schemas: { body: registerRequest },
      handler: async (ctx): Promise<RegisterResponse> => {
        const brand = requireBrand(ctx);
        const { body, database, req } = ctx;
        const { sql } = database;
        const userName = body.UserName;
        await enforce(
          ctx,
          [
            [ACCOUNT_THROTTLE.registerPerAddress, req.ip],
            [ACCOUNT_THROTTLE.registerPerName, userName.toLowerCase()],
          ],
          Text.tooManyRegistrations,
        );
        const problems = passwordProblems(body.Password);
        if (problems.length) throw badRequest(policyMessage(problems));
        if (await findUserByName(sql, userName)) {
          await ctx.audit({ action: 'account.register', outcome: 'refused', entity: 'user', detail: { userName, brand: brand.id, reason: 'name taken' } });
          throw conflict(Text.nameTaken(userName));
        }
        const role = brand.registration.role as Role | null;
        const isMember = role !== null && MEMBER_ROLES.includes(role);
        // Assist signs in straight after registering (spec 01 section 4): active at once, no activation mail.
        const activeNow = brand.registration.signInOnRegister;
        const passwordHash = await hashPassword(body.Password);
        let created: { userId: string; memberId: number | null; memberNumber: string | null; urlId: string | null };
        try {
          created = await sql.transaction(async (tx) => {
            const member = isMember ? await insertMember(tx, brand.id, body.FirstName, body.LastName, userName) : null;
            const userId = await createUser(tx, {
              userName,
              passwordHash,
              firstName: body.FirstName,
              lastName: body.LastName,
              email: userName,
              brand: brand.id,
              memberId: member?.memberId ?? null,
              roles: role ? [role] : [],
              isActive: activeNow,
              registrationStep: 0,
            });
            await tx.query('INSERT INTO account_registrations (user_id, brand, activated_at) VALUES ($1, $2, $3)', [
              userId,
              brand.id,
              activeNow ? new Date() : null,
            ]);
            const urlId = activeNow ? null : await issueLink(tx, userId, 'activate');
            return { userId, memberId: member?.memberId ?? null, memberNumber: member?.memberNumber ?? null, urlId };
          });
        } catch (e) {
          // Two registrations of one name racing: the unique index lets one through.
          if (isUniqueViolation(e)) throw conflict(Text.nameTaken(userName));
          throw e;
        }
        await ctx.audit({
          action: 'account.register',
          entity: 'user',
          entityId: created.userId,
          memberId: created.memberId,
          detail: { userName, brand: brand.id, role, active: activeNow },
        });
        if (created.urlId) {
          try {
            await send(ctx, activationMail({ brand, site: siteAddress(ctx, brand), to: userName, firstName: body.FirstName, urlId: created.urlId }));
          } catch (e) {
            req.log.error({ err: e }, 'activation mail failed');
            await ctx.audit({
              action: 'account.mail.activation',
              outcome: 'failure',
              entity: 'user',
              entityId: created.userId,
              detail: { error: (e as Error).message },
            });
            throw new ApiError(502, Text.activationMailFailed);
          }
        }
        return { UserName: userName, IsActive: activeNow, MemberNumber: created.memberNumber };
      },
    }),
    route({
      method: 'GET',
      url: AccountApi.registerStatus,
      access: 'authenticated',
      handler: async ({ user, database }): Promise<number> => {
        const u = user && (await findUserById(database.sql, user.id));
        if (!u) throw notFound('The account no longer exists.');
        return u.registration_step;
      },
    }),
    route({
      method: 'POST',
      url: AccountApi.registerStatus,
      access: 'authenticated',
      schemas: { query: registerStatusQuery },
      handler: async ({ user, database, query }): Promise<number> => {
        if (!user) throw notFound('The account no longer exists.');
        // The step only advances (spec 01 section 4): a lower value leaves it as it is.
        const rows = await database.sql.query<{ registration_step: number }>(
          `UPDATE users SET registration_step = GREATEST(registration_step, $2) WHERE id = $1 RETURNING registration_step`,
          [user.id, query.status],
        );
        if (!rows[0]) throw notFound('The account no longer exists.');
        return rows[0].registration_step;
      },
    }),
    route({
      method: 'POST',
      url: AccountApi.registered,
      access: 'authenticated',
      schemas: { query: registeredQuery },
      // status=true marks the registration wizard complete (step 10); status=false changes nothing
      // (a step never goes back) and reports where the user stands.
      handler: async ({ user, database, query }) => {
        if (!user) throw notFound('The account no longer exists.');
        const rows = await database.sql.query<{ registration_step: number }>(
          `UPDATE users SET registration_step = CASE WHEN $2 THEN GREATEST(registration_step, $3) ELSE registration_step END
           WHERE id = $1 RETURNING registration_step`,
          [user.id, query.status, REGISTRATION_COMPLETE_STEP],
        );
        const step = rows[0]?.registration_step;
        if (step === undefined) throw notFound('The account no longer exists.');
        return { Registered: step >= REGISTRATION_COMPLETE_STEP, Step: step };
      },
    }),

    // ---- activation ----------------------------------------------------------------------------
    route({
      method: 'GET',
      url: '/api/account/activate/:urlId',
      access: 'public',
      schemas: { params: urlIdParams },
      handler: async ({ params, database }) => {
        const link = await findLiveLink(database.sql, params.urlId, 'activate');
        const info: LinkInfo = { IsValid: link !== null, Questions: link ? await questionCatalogue(database.sql) : [], UrlId: params.urlId };
        return link ? info : withMessage(info, AccountMessages.activationInvalid);
      },
    }),
    route({
      method: 'POST',
      url: AccountApi.activate,
      access: 'public',
      noFormToken: true,
      schemas: { body: activateRequest },
      /*
       * Activation SETS the password from the payload (it may well be the one given at registration) and
       * saves the two security questions. It does not insist on the registration password: whoever holds
       * the e-mailed link could reset the password anyway, a member who mistyped or forgot it at
       * registration can still activate, and the endpoint offers no way to test guesses of a password.
       */
      handler: async (ctx) => {
        const { body, database } = ctx;
        const { sql } = database;
        const refuse = () => new ApiError(400, AccountMessages.activationInvalid, { IsValid: false });
        const link = await findLiveLink(sql, body.UrlID, 'activate');
        if (!link) {
          await ctx.audit({ action: 'account.activate', outcome: 'refused', entity: 'link', detail: { reason: 'invalid link' } });
          throw refuse();
        }
        checkNewPassword(body.Password, body.ConfirmPassword);
        const answers = await hashAnswers(sql, body.Questions);
        const passwordHash = await hashPassword(body.Password);
        const userId = await sql.transaction(async (tx) => {
          const spent = await spendLink(tx, body.UrlID, 'activate');
          if (!spent) return null;
          await saveAnswers(tx, spent, answers);
          await tx.query('UPDATE users SET is_active = true, password_hash = $2, version = version + 1 WHERE id = $1', [spent, passwordHash]);
          await tx.query('UPDATE account_registrations SET activated_at = now() WHERE user_id = $1', [spent]);
          return spent;
        });
        if (!userId) throw refuse();
        await ctx.audit({ action: 'account.activate', entity: 'user', entityId: userId });
        return withMessage({ IsValid: true }, AccountMessages.activationSuccess);
      },
    }),

    // ---- password reset ----------------------------------------------------------------------
    route({
      method: 'POST',
      url: AccountApi.resetSendEmail,
      access: 'public',
      noFormToken: true,
      schemas: { body: resetSendEmailRequest },
      /*
       * The answer is the same whether or not the name exists: the throttles count by address and by the
       * name as typed, and the lookup, the link and the mail happen after the answer (failures are logged
       * and audited). A registered but never activated account gets a fresh activation link instead; a
       * deactivated account gets nothing.
       */
      handler: async (ctx) => {
        const brand = requireBrand(ctx);
        const { body, database, req } = ctx;
        const userName = body.UserName;
        await enforce(
          ctx,
          [
            [ACCOUNT_THROTTLE.resetMailPerAddress, req.ip],
            [ACCOUNT_THROTTLE.resetMailPerName, userName.toLowerCase()],
          ],
          Text.tooManyResetMails,
        );
        const site = siteAddress(ctx, brand);
        const work = async () => {
          const { sql } = database;
          const user = await findUserByName(sql, userName);
          const to = user?.email ?? (user && /^[^@\s]+@[^@\s]+$/.test(user.user_name) ? user.user_name : null);
          if (!user || !to) {
            await ctx.audit({ action: 'account.reset.request', outcome: 'refused', detail: { userName, reason: user ? 'no e-mail address' : 'unknown user' } });
            return;
          }
          let purpose: 'reset' | 'activate' | null = null;
          if (user.is_active) purpose = 'reset';
          else {
            const reg = await sql.query<{ activated_at: Date | null }>('SELECT activated_at FROM account_registrations WHERE user_id = $1', [user.id]);
            if (reg[0] && reg[0].activated_at === null) purpose = 'activate';
          }
          if (!purpose) {
            await ctx.audit({
              action: 'account.reset.request',
              outcome: 'refused',
              entity: 'user',
              entityId: user.id,
              detail: { reason: 'account deactivated' },
            });
            return;
          }
          const urlId = await issueLink(sql, user.id, purpose);
          const mail = (purpose === 'reset' ? resetMail : activationMail)({ brand, site, to, firstName: user.first_name, urlId });
          try {
            await send(ctx, mail);
            await ctx.audit({ action: 'account.reset.request', entity: 'user', entityId: user.id, memberId: user.member_id, detail: { link: purpose } });
          } catch (e) {
            req.log.error({ err: e }, 'reset mail failed');
            await ctx.audit({
              action: 'account.reset.request',
              outcome: 'failure',
              entity: 'user',
              entityId: user.id,
              detail: { error: (e as Error).message },
            });
          }
        };
        void work().catch((e) => req.log.error({ err: e }, 'reset request failed'));
        return { Sent: true as const };
      },
    }),
    route({
      method: 'GET',
      url: '/api/account/reset/validate/:urlId',
      access: 'public',
      schemas: { params: urlIdParams },
      handler: async ({ params, database }) => {
        const link = await findLiveLink(database.sql, params.urlId, 'reset');
        const info: LinkInfo = { IsValid: link !== null, Questions: [], UrlId: params.urlId };
        return link ? info : withMessage(info, AccountMessages.resetInvalid);
      },
    }),
    route({
      method: 'POST',
      url: AccountApi.resetPassword,
      access: 'public',
      noFormToken: true,
      schemas: { body: resetPasswordRequest },
      handler: async (ctx) => {
        const { body, database } = ctx;
        const { sql } = database;
        const refuse = () => new ApiError(400, AccountMessages.resetInvalid, { IsValid: false });
        const link = await findLiveLink(sql, body.UrlId, 'reset');
        if (!link) {
          await ctx.audit({ action: 'account.reset.password', outcome: 'refused', entity: 'link', detail: { reason: 'invalid link' } });
          throw refuse();
        }
        checkNewPassword(body.Password, body.ConfirmPassword);
        const passwordHash = await hashPassword(body.Password);
        const userId = await sql.transaction(async (tx) => {
          const spent = await spendLink(tx, body.UrlId, 'reset');
          if (!spent) return null;
          await tx.query('UPDATE users SET password_hash = $2, version = version + 1 WHERE id = $1', [spent, passwordHash]);
          // Every session of the account ends: whoever knew the old password is signed out.
          await revokeSessions(tx, spent, 'password-reset');
          return spent;
        });
        if (!userId) throw refuse();
        // The sign-in failure count of the account starts again with the new password.
        await clearThrottle(sql, 'signin-fail', link.user_name.trim().toLowerCase());
        await ctx.audit({ action: 'account.reset.password', entity: 'user', entityId: userId });
        return withMessage({ IsValid: true }, AccountMessages.resetSuccess);
      },
    }),
    route({
      method: 'GET',
      url: AccountApi.passwordPolicy,
      access: 'public',
      handler: () => PASSWORD_RULES,
    }),

    // ---- security questions and password of the signed-in user --------------------------------
    route({
      method: 'GET',
      url: AccountApi.securityQuestions,
      access: 'public',
      handler: ({ database }) => questionCatalogue(database.sql),
    }),
    route({
      method: 'POST',
      url: AccountApi.updateQuestions,
      access: 'authenticated',
      schemas: { body: updateQuestionsRequest },
      handler: async (ctx) => {
        const { user, body, database } = ctx;
        if (!user) throw notFound('The account no longer exists.');
        const hashed = await hashAnswers(database.sql, body);
        await database.sql.transaction((tx) => saveAnswers(tx, user.id, hashed));
        await ctx.audit({ action: 'account.questions.update', entity: 'user', entityId: user.id, detail: { questions: body.map((a) => a.Id) } });
        return withMessage(null, Text.questionsSaved);
      },
    }),
    route({
      method: 'POST',
      url: AccountApi.updatePassword,
      access: 'authenticated',
      schemas: { body: updatePasswordRequest },
      handler: async (ctx) => {
        const { user, body, database } = ctx;
        const { sql } = database;
        const u = user && (await findUserById(sql, user.id));
        if (!u || !user) throw notFound('The account no longer exists.');
        const rule = ACCOUNT_THROTTLE.passwordFailuresPerUser;
        const wait = await secondsToWait(sql, rule, u.id);
        if (wait > 0) {
          ctx.reply.header('retry-after', String(wait));
          throw new ApiError(429, Text.tooManyPasswordFailures(Math.ceil(wait / 60)));
        }
        const invalid = async (reason: string) => {
          await ctx.audit({ action: 'account.password.change', outcome: 'failure', entity: 'user', entityId: u.id, detail: { reason } });
          return withMessage({ IsValid: false }, reason);
        };
        if (!(await verifyPassword(body.OldPassword, u.password_hash))) {
          await recordThrottleEvent(sql, rule, u.id);
          return invalid(Text.oldPasswordWrong);
        }
        if (body.Password !== body.ConfirmPassword) return invalid(Text.passwordsDiffer);
        const problems = passwordProblems(body.Password);
        if (problems.length) return invalid(policyMessage(problems));
        if (body.Password === body.OldPassword) return invalid(Text.samePassword);
        const passwordHash = await hashPassword(body.Password);
        await sql.transaction(async (tx) => {
          await tx.query('UPDATE users SET password_hash = $2, version = version + 1 WHERE id = $1', [u.id, passwordHash]);
          // Other sessions end; the one that changed the password goes on.
          await revokeSessions(tx, u.id, 'password-change', user.sessionId);
        });
        await clearThrottle(sql, rule.kind, u.id);
        await ctx.audit({ action: 'account.password.change', entity: 'user', entityId: u.id });
        return withMessage({ IsValid: true }, AccountMessages.passwordChanged);
      },
    }),

    // ---- members: e-mail address --------------------------------------------------------------
    route({
      method: 'GET',
      url: AccountApi.updateEmail,
      access: 'authenticated',
      schemas: { query: updateEmailQuery },
      // A GET that changes data, as the spec names it. It needs the bearer token (a header, never sent
      // by another site), so it cannot be forged cross-site even without the anti-forgery header.
      handler: async (ctx) => {
        const { user, query, database, impersonating } = ctx;
        if (!user) throw notFound('The account no longer exists.');
        if (impersonating) throw forbidden(Text.impersonatedEmail);
        const email = query.email;
        const memberId = await database.sql.transaction(async (tx) => {
          const rows = await tx.query<{ member_id: number | null }>('UPDATE users SET email = $2, version = version + 1 WHERE id = $1 RETURNING member_id', [
            user.id,
            email,
          ]);
          if (!rows[0]) throw notFound('The account no longer exists.');
          const mid = rows[0].member_id;
          if (mid !== null) await tx.query('UPDATE members SET email = $2, version = version + 1 WHERE member_id = $1', [mid, email]);
          return mid;
        });
        await ctx.audit({ action: 'member.email.update', entity: 'user', entityId: user.id, memberId, detail: { email } });
        return withMessage({ Email: email }, Text.emailUpdated);
      },
    }),
  ],
});
