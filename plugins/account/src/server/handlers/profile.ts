import { ApiError, forbidden, hashPassword, notFound, route, verifyPassword, withMessage } from '@portal/server';
import { AccountApi, AccountMessages } from '../../contract';
import { hashAnswers, questionCatalogue, saveAnswers, Text } from '../common';
import { passwordProblems, policyMessage } from '../policy';
import { ACCOUNT_THROTTLE } from '../throttle';

/** The signed-in user's security questions, password and e-mail address. */
export const profileRoutes = [
  route(AccountApi.securityQuestions, { access: 'public', handler: ({ database }) => questionCatalogue(database.sql) }),
  route(AccountApi.updateQuestions, {
    access: 'authenticated',
    handler: async (ctx) => {
      const { user, body, database } = ctx;
      if (!user) throw notFound(Text.noAccount);
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
      const wait = await services.throttle.secondsToWait(rule, u.id);
      if (wait > 0) {
        ctx.reply.header('retry-after', String(wait));
        throw new ApiError(429, Text.tooManyPasswordFailures(Math.ceil(wait / 60)));
      }
      const invalid = async (reason: string) => {
        await ctx.audit({ action: 'account.password.change', outcome: 'failure', entity: 'user', entityId: u.id, detail: { reason } });
        return withMessage({ IsValid: false }, reason);
      };
      if (!(await verifyPassword(body.OldPassword, u.password_hash))) {
        await services.throttle.hit(rule, u.id);
        return invalid(Text.oldPasswordWrong);
      }
      if (body.Password !== body.ConfirmPassword) return invalid(Text.passwordsDiffer);
      const problems = passwordProblems(body.Password);
      if (problems.length) return invalid(policyMessage(problems));
      if (body.Password === body.OldPassword) return invalid(Text.samePassword);
      const passwordHash = await hashPassword(body.Password);
      await database.sql.transaction(async (tx) => {
        await services.identity.setPassword(u.id, passwordHash, tx);
        // Other sessions end; the one that changed the password goes on.
        await services.identity.revokeSessions(u.id, 'password-change', { keepSessionId: user.sessionId }, tx);
        await services.throttle.clear(rule, u.id, tx);
        await ctx.audit({ action: 'account.password.change', entity: 'user', entityId: u.id }, tx);
      });
      return withMessage({ IsValid: true }, AccountMessages.passwordChanged);
    },
  }),
  route(AccountApi.updateEmail, {
    access: 'authenticated',
    // A GET that changes data, as the spec names it. It needs the bearer token (a header, never sent
    // by another site), so it cannot be forged cross-site even without the anti-forgery header.
    handler: async (ctx) => {
      const { user, query, database, impersonating, services } = ctx;
      if (!user) throw notFound(Text.noAccount);
      if (impersonating) throw forbidden(Text.impersonatedEmail);
      const email = query.email;
      await database.sql.transaction(async (tx) => {
        const changed = await services.identity.setEmail(user.id, email, tx);
        if (!changed) throw notFound(Text.noAccount);
        if (changed.memberId !== null) await services.members.set(changed.memberId, { email }, tx);
        await ctx.audit({ action: 'member.email.update', entity: 'user', entityId: user.id, memberId: changed.memberId, detail: { email } }, tx);
      });
      return withMessage({ Email: email }, Text.emailUpdated);
    },
  }),
];
