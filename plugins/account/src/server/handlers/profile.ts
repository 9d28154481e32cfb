import {
  ApiError,
  badRequest,
  conflict,
  forbidden,
  hashPassword,
  type Message,
  notFound,
  route,
  type SqlClient,
  verifyPassword,
  withMessage,
} from '@portal/server';
import { AccountApi, AccountMessages } from '../../contract';
import { hashAnswers, isUniqueViolation, questionCatalogue, requireBrand, saveAnswers, siteAddress, Text } from '../common';
import { endEmailChanges, issueLink, spendEmailLink } from '../links';
import { confirmEmailMail, emailChangeNoticeMail } from '../mail-templates';
import { passwordProblems, policyMessage } from '../policy';
import { ACCOUNT_THROTTLE } from '../throttle';

/** Whether another login signs in with, or is mailed at, this address: it cannot become this user's. */
async function heldByAnother(sql: SqlClient, address: string, userId: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM users WHERE id <> $2 AND (lower(user_name) = lower($1) OR lower(email) = lower($1)) LIMIT 1', [address, userId]);
  return rows.length > 0;
}

/** A confirmation refused inside its transaction (so the link stays unspent): the address became another login's. */
class AddressTaken extends Error {
  constructor(
    readonly userId: string,
    readonly address: string,
  ) {
    super('address taken');
  }
}

/** The signed-in user's security questions, password and e-mail address. */
export const profileRoutes = [
  route(AccountApi.securityQuestions, { access: 'public', handler: ({ database }) => questionCatalogue(database.sql) }),
  route(AccountApi.updateQuestions, {
    access: 'authenticated',
    handler: async (ctx) => {
      const { user, body, database, services } = ctx;
      if (!user) throw notFound(Text.noAccount);
      // Each save hashes two answers: counted before they are hashed, and a save does not clear the count.
      await services.throttle.enforce(ctx.reply, [[ACCOUNT_THROTTLE.questionChangesPerUser, user.id]], Text.tooManyQuestionChanges);
      const hashed = await hashAnswers(database.sql, body);
      await database.sql.transaction(async (tx) => {
        await saveAnswers(tx, user.id, hashed);
        await ctx.audit({ action: 'account.questions.update', entity: 'user', entityId: user.id, detail: { questions: body.map((a) => a.Id) } }, tx);
      });
      return withMessage(null, Text.questionsSaved);
    },
  }),
  route(AccountApi.updatePassword, {
    access: 'authenticated',
    handler: async (ctx) => {
      const { user, body, database, services } = ctx;
      const u = user && (await services.identity.findById(user.id));
      if (!u || !user) throw notFound(Text.noAccount);
      const rule = ACCOUNT_THROTTLE.passwordFailuresPerUser;
      // Every attempt, right or wrong, counts towards a limit the right password does not clear. First: an attempt it
      // refuses has no password checked, so it must not count as a wrong one.
      await services.throttle.enforce(ctx.reply, [[ACCOUNT_THROTTLE.passwordChangesPerUser, u.id]], Text.tooManyPasswordChanges);
      // Each check is counted before the password is checked (atomically), so concurrent guesses cannot all be
      // checked before the first failure is written; the right password clears the count.
      await services.throttle.enforce(ctx.reply, [[rule, u.id]], Text.tooManyPasswordFailures);
      const invalid = async (reason: Message) => {
        await ctx.audit({ action: 'account.password.change', outcome: 'failure', entity: 'user', entityId: u.id, detail: { reason: String(reason) } });
        return withMessage({ IsValid: false }, reason);
      };
      if (!(await verifyPassword(body.OldPassword, u.password_hash))) return invalid(Text.oldPasswordWrong);
      await services.throttle.clear(rule, u.id);
      if (body.Password !== body.ConfirmPassword) return invalid(Text.passwordsDiffer);
      const problems = passwordProblems(body.Password);
      if (problems.length) return invalid(policyMessage(problems));
      if (body.Password === body.OldPassword) return invalid(Text.samePassword);
      const passwordHash = await hashPassword(body.Password);
      // Stored only over the password just checked: a reset or another change that landed meanwhile stays.
      const changed = await database.sql.transaction(async (tx) => {
        if (!(await services.identity.setPassword(u.id, passwordHash, tx, u.password_hash))) return false;
        // Other sessions end; the one that changed the password goes on.
        await services.identity.revokeSessions(u.id, 'password-change', { keepSessionId: user.sessionId }, tx);
        await endEmailChanges(tx, u.id);
        // Reset links mailed before end too: whoever read one must not set a password over the one just chosen.
        await tx.query(`UPDATE account_links SET used_at = now() WHERE user_id = $1 AND purpose = 'reset' AND used_at IS NULL`, [u.id]);
        await ctx.audit({ action: 'account.password.change', entity: 'user', entityId: u.id }, tx);
        return true;
      });
      if (!changed) {
        await ctx.audit({ action: 'account.password.change', outcome: 'refused', entity: 'user', entityId: u.id, detail: { reason: 'changed meanwhile' } });
        throw new ApiError(409, Text.passwordChangedMeanwhile, { IsValid: false });
      }
      return withMessage({ IsValid: true }, AccountMessages.passwordChanged);
    },
  }),
  route(AccountApi.updateEmail, {
    access: 'authenticated',
    // Needs the current password; the new address receives a single-use link and the current one a notice.
    // Nothing changes until the link is opened (confirmEmail).
    handler: async (ctx) => {
      const { user, body, database, impersonating, services, req } = ctx;
      const brand = requireBrand(ctx);
      if (impersonating) throw forbidden(Text.impersonatedEmail);
      const u = user && (await services.identity.findById(user.id));
      if (!u || !user) throw notFound(Text.noAccount);
      const rule = ACCOUNT_THROTTLE.passwordFailuresPerUser;
      // Every request, right password or wrong, counts towards a limit the right password does not clear: each one
      // with the right password mails a link to an address of the caller's choosing. First, as in updatePassword: a
      // request it refuses has no password checked.
      await services.throttle.enforce(ctx.reply, [[ACCOUNT_THROTTLE.emailChangesPerUser, u.id]], Text.tooManyEmailChanges);
      await services.throttle.enforce(ctx.reply, [[rule, u.id]], Text.tooManyPasswordFailures);
      if (!(await verifyPassword(body.Password, u.password_hash))) {
        await ctx.audit({ action: 'member.email.request', outcome: 'failure', entity: 'user', entityId: u.id, detail: { reason: 'password' } });
        throw badRequest(Text.oldPasswordWrong);
      }
      await services.throttle.clear(rule, u.id);
      const newEmail = body.email;
      if (await heldByAnother(database.sql, newEmail, u.id)) {
        await ctx.audit({ action: 'member.email.request', outcome: 'refused', entity: 'user', entityId: u.id, detail: { newEmail, reason: 'address taken' } });
        throw conflict(Text.emailTaken(newEmail));
      }
      const urlId = await database.sql.transaction(async (tx) => {
        // A new request replaces the one before: only the newest address asked for can be confirmed (an earlier one
        // may be the typo this request corrects).
        await endEmailChanges(tx, u.id);
        const id = await issueLink(tx, u.id, 'email', newEmail);
        await ctx.audit({ action: 'member.email.request', entity: 'user', entityId: u.id, memberId: u.member_id, detail: { newEmail } }, tx);
        return id;
      });
      const site = siteAddress(ctx, brand);
      try {
        // Both mails go to the user who asked (never while acting for a member): in the language of the request.
        await services.mail.send(confirmEmailMail({ brand, site, to: newEmail, firstName: u.first_name, urlId, t: ctx.t, language: ctx.language }));
        const current = u.email ?? (/^[^@\s]+@[^@\s]+$/.test(u.user_name) ? u.user_name : null);
        if (current)
          await services.mail.send(emailChangeNoticeMail({ brand, site, to: current, firstName: u.first_name, newEmail, t: ctx.t, language: ctx.language }));
      } catch (e) {
        req.log.error({ err: e }, 'e-mail change mail failed');
        throw new ApiError(502, Text.emailMailFailed);
      }
      return withMessage({ Email: u.email, Pending: newEmail }, Text.emailConfirmSent(newEmail));
    },
  }),
  route(AccountApi.confirmEmail, {
    access: 'public',
    noFormToken: true,
    // Opened from the mailed link, possibly in another browser: the link itself is the proof.
    handler: async (ctx) => {
      const { body, database, services } = ctx;
      const confirm = database.sql.transaction(async (tx) => {
        const spent = await spendEmailLink(tx, body.UrlId);
        if (!spent) return null;
        // Checked again: another login may have taken the address since the change was asked for (the unique user
        // name index catches one that takes it while this runs).
        if (await heldByAnother(tx, spent.newEmail, spent.userId)) throw new AddressTaken(spent.userId, spent.newEmail);
        // A user name that was the old address follows it (setEmail): the user signs in with the address they use.
        const changed = await services.identity.setEmail(spent.userId, spent.newEmail, tx).catch((e: unknown) => {
          throw isUniqueViolation(e) ? new AddressTaken(spent.userId, spent.newEmail) : e;
        });
        if (!changed) return null;
        if (changed.memberId !== null) await services.members.set(changed.memberId, { email: spent.newEmail }, tx);
        await ctx.audit(
          {
            action: 'member.email.update',
            entity: 'user',
            entityId: spent.userId,
            memberId: changed.memberId,
            detail: { email: spent.newEmail, userName: changed.userName },
          },
          tx,
        );
        return spent.newEmail;
      });
      const done = await confirm.catch(async (e: unknown) => {
        if (!(e instanceof AddressTaken)) throw e;
        await ctx.audit({
          action: 'member.email.update',
          outcome: 'refused',
          entity: 'user',
          entityId: e.userId,
          detail: { email: e.address, reason: 'address taken' },
        });
        throw new ApiError(409, Text.emailTaken(e.address), { IsValid: false, Email: null });
      });
      if (!done) {
        await ctx.audit({ action: 'member.email.update', outcome: 'refused', entity: 'link', detail: { reason: 'invalid link' } });
        throw new ApiError(400, Text.emailLinkInvalid, { IsValid: false, Email: null });
      }
      return withMessage({ IsValid: true, Email: done }, Text.emailUpdated);
    },
  }),
];
