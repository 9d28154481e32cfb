import { ApiError, hashPassword, route, withMessage } from '@portal/server';
import { AccountApi, AccountMessages, type LinkInfo } from '../../contract';
import { accountService } from '../../service';
import { checkNewPassword, hashAnswers, questionCatalogue, requireBrand, saveAnswers, siteAddress, Text } from '../common';
import { endEmailChanges, findLiveLink, issueLink, spendLink } from '../links';
import { activationMail, resetMail } from '../mail-templates';
import { passwordRules } from '../policy';
import { ACCOUNT_THROTTLE } from '../throttle';

/** Activation and password reset through the e-mailed single-use links. */
export const linkRoutes = [
  route(AccountApi.activateValidate, {
    access: 'public',
    handler: async ({ params, database }) => {
      const link = await findLiveLink(database.sql, params.urlId, 'activate');
      const info: LinkInfo = { IsValid: link !== null, Questions: link ? await questionCatalogue(database.sql) : [], UrlId: params.urlId };
      return link ? info : withMessage(info, AccountMessages.activationInvalid);
    },
  }),
  route(AccountApi.activate, {
    access: 'public',
    noFormToken: true,
    /*
     * Activation SETS the password from the payload (it may well be the one given at registration) and
     * saves the two security questions. It does not insist on the registration password: whoever holds
     * the e-mailed link could reset the password anyway, a member who mistyped or forgot it at
     * registration can still activate, and the endpoint offers no way to test guesses of a password.
     */
    handler: async (ctx) => {
      const { body, database, services } = ctx;
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
        await services.identity.activate(spent, { passwordHash }, tx);
        await tx.query('UPDATE account_registrations SET activated_at = now() WHERE user_id = $1', [spent]);
        await ctx.audit({ action: 'account.activate', entity: 'user', entityId: spent }, tx);
        return spent;
      });
      if (!userId) throw refuse();
      return withMessage({ IsValid: true }, AccountMessages.activationSuccess);
    },
  }),
  route(AccountApi.resetSendEmail, {
    access: 'public',
    noFormToken: true,
    /*
     * The answer is the same whether or not the name exists: the throttles count by address and by the
     * name as typed, and the lookup, the link and the mail happen after the answer (failures are logged
     * and audited). A registered but never activated account gets a fresh activation link instead, and so does one
     * added by staff whose activation mail was never sent (no registration row); a deactivated (once active) or closed
     * (support) account gets nothing.
     */
    handler: async (ctx) => {
      const brand = requireBrand(ctx);
      const { body, database, req, services } = ctx;
      const userName = body.UserName;
      await services.throttle.enforce(
        ctx.reply,
        [
          [ACCOUNT_THROTTLE.resetMailPerAddress, req.ip],
          [ACCOUNT_THROTTLE.resetMailPerName, userName.toLowerCase()],
        ],
        Text.tooManyResetMails,
      );
      const work = async () => {
        const { sql } = database;
        const user = await services.identity.findByName(userName);
        const to = user?.email ?? (user && /^[^@\s]+@[^@\s]+$/.test(user.user_name) ? user.user_name : null);
        if (!user || !to) {
          await ctx.audit({ action: 'account.reset.request', outcome: 'refused', detail: { userName, reason: user ? 'no e-mail address' : 'unknown user' } });
          return;
        }
        let purpose: 'reset' | 'activate' | null = null;
        // A login closed by support (a terminated member) gets nothing, as a deactivated one: it cannot sign in again.
        if (user.closed_at) purpose = null;
        else if (user.is_active) purpose = 'reset';
        else {
          const reg = await sql.query<{ activated_at: Date | null }>('SELECT activated_at FROM account_registrations WHERE user_id = $1', [user.id]);
          if (!reg[0]) {
            // Added by staff and never activated (no registration row: support has not sent the activation mail yet). The
            // account service sends it as support's "send activation" does: registration row, link, audit, mail in the
            // user's brand and language. A row with activated_at set (once active, since deactivated) gets nothing below.
            try {
              const { sentTo } = await ctx.use(accountService).sendActivation(user.id, { brand, host: String(req.headers.host ?? ''), protocol: req.protocol });
              await ctx.audit({
                action: 'account.reset.request',
                entity: 'user',
                entityId: user.id,
                memberId: user.member_id,
                detail: { link: 'activate', to: sentTo },
              });
            } catch (e) {
              req.log.error({ err: e }, 'activation mail for a reset request failed');
              await ctx.audit({
                action: 'account.reset.request',
                outcome: 'failure',
                entity: 'user',
                entityId: user.id,
                detail: { error: (e as Error).message },
              });
            }
            return;
          }
          if (reg[0].activated_at === null) purpose = 'activate';
        }
        if (!purpose) {
          await ctx.audit({
            action: 'account.reset.request',
            outcome: 'refused',
            entity: 'user',
            entityId: user.id,
            detail: { reason: user.closed_at ? 'account closed' : 'account deactivated' },
          });
          return;
        }
        const urlId = await issueLink(sql, user.id, purpose);
        // The user's own brand signs the mail and its link opens that brand's site, whatever site it was asked on (as
        // the activation service does); the asking site only for a brand this server does not serve.
        const mailBrand = services.brands.byId(user.brand) ?? brand;
        // The mail is for whoever asked for it: in the language of the request.
        const mail = (purpose === 'reset' ? resetMail : activationMail)({
          brand: mailBrand,
          site: siteAddress(ctx, mailBrand),
          to,
          firstName: user.first_name,
          urlId,
          t: ctx.t,
          language: ctx.language,
        });
        try {
          await services.mail.send(mail);
          await ctx.audit({ action: 'account.reset.request', entity: 'user', entityId: user.id, memberId: user.member_id, detail: { link: purpose } });
        } catch (e) {
          req.log.error({ err: e }, 'reset mail failed');
          await ctx.audit({ action: 'account.reset.request', outcome: 'failure', entity: 'user', entityId: user.id, detail: { error: (e as Error).message } });
        }
      };
      void work().catch((e) => req.log.error({ err: e }, 'reset request failed'));
      return { Sent: true as const };
    },
  }),
  route(AccountApi.resetValidate, {
    access: 'public',
    handler: async ({ params, database }) => {
      const link = await findLiveLink(database.sql, params.urlId, 'reset');
      const info: LinkInfo = { IsValid: link !== null, Questions: [], UrlId: params.urlId };
      return link ? info : withMessage(info, AccountMessages.resetInvalid);
    },
  }),
  route(AccountApi.resetPassword, {
    access: 'public',
    noFormToken: true,
    handler: async (ctx) => {
      const { body, database, services } = ctx;
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
        await services.identity.setPassword(spent, passwordHash, tx);
        // Every session of the account ends: whoever knew the old password is signed out.
        await services.identity.revokeSessions(spent, 'password-reset', {}, tx);
        await endEmailChanges(tx, spent);
        // The sign-in failure count of the account starts again with the new password.
        await services.throttle.clearSignInFailures(link.user_name, tx);
        await ctx.audit({ action: 'account.reset.password', entity: 'user', entityId: spent }, tx);
        return spent;
      });
      if (!userId) throw refuse();
      return withMessage({ IsValid: true }, AccountMessages.resetSuccess);
    },
  }),
  // The rules' messages are the checklist the page shows: in the user's language.
  route(AccountApi.passwordPolicy, { access: 'public', handler: (ctx) => passwordRules(ctx.t) }),
];
