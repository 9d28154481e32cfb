import { ApiError, type Message, type PluginInit } from '@portal/server';
import { REGISTRATION_COMPLETE_STEP, REGISTRATION_STEPS } from '../contract';
import { type AccountService, ActivationRefusals, type RegistrationRules, StepRefusals } from '../service';
import { siteAddressOf } from './common';
import { endAccessLinks, issueLink } from './links';
import { activationMail, signInNameNoticeMail } from './mail-templates';

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/**
 * The account service other plugins use (declared in ../service.ts). An account another plugin created
 * (an administrator adding a user) gets the same registration row, single-use link and e-mail as a
 * self-registered one, so /login/activate/:urlId activates both alike.
 */
export function createAccountService({ services, config, database }: PluginInit): AccountService {
  let rules: RegistrationRules | null = null;
  return {
    useRegistrationRules(r) {
      rules = r;
    },
    async setRegistrationStep(userId, step, brand) {
      if (!REGISTRATION_STEPS.includes(step)) throw new ApiError(400, StepRefusals.notAStep);
      const user = await services.identity.findById(userId);
      if (!user) throw new ApiError(404, StepRefusals.noAccount);
      if (step < user.registration_step) throw new ApiError(409, StepRefusals.lower(user.registration_step));
      if (step === user.registration_step) return step;
      if (step === REGISTRATION_COMPLETE_STEP && rules) {
        const refusal = await rules.canComplete({ userId, memberId: user.member_id, brand });
        if (refusal) throw new ApiError(409, refusal);
      }
      const stored = await services.identity.raiseRegistrationStep(userId, step);
      if (stored === null) throw new ApiError(404, StepRefusals.noAccount);
      return stored;
    },
    async sendActivation(userId, site, actor) {
      const user = await services.identity.findById(userId);
      if (!user) throw new ApiError(404, ActivationRefusals.unknownUser);
      // A closed login (support ended the member's access) takes no link, active or not: /token would refuse it anyway.
      if (user.closed_at) throw new ApiError(409, ActivationRefusals.closed);
      if (user.is_active) throw new ApiError(409, ActivationRefusals.alreadyActive);
      const to = user.email ?? (EMAIL.test(user.user_name) ? user.user_name : null);
      if (!to) throw new ApiError(400, ActivationRefusals.noEmail);
      // The user's own brand signs the mail and its link opens that brand's site, also when support sends it from the
      // staff site; the asking site only for a brand this server does not serve.
      const brand = services.brands.byId(user.brand) ?? site.brand;
      const urlId = await database.sql.transaction(async (tx) => {
        // The registration row marks an account waiting for its activation link (findLiveLink checks it).
        const reg = await tx.query<{ activated_at: Date | null }>(
          `INSERT INTO account_registrations (user_id, brand) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id RETURNING activated_at`,
          [userId, user.brand],
        );
        if (reg[0]?.activated_at) return null;
        const token = await issueLink(tx, userId, 'activate');
        await services.audit.write(
          {
            action: 'account.activation.link',
            actorUserId: actor?.userId ?? null,
            actorName: actor?.name ?? null,
            entity: 'user',
            entityId: userId,
            detail: { to, brand: brand.id },
          },
          tx,
        );
        return token;
      });
      if (!urlId) throw new ApiError(409, ActivationRefusals.deactivated);
      const address = siteAddressOf(brand, site.host ?? '', site.protocol ?? 'http', config);
      // Queued (a stored job), after the commit: the link exists before any mail can point at it.
      // Another person (an administrator) asked for it: the mail is in the language of the account's user.
      const t = (message: Message) => services.messages.t(message, user.language);
      await services.mail.send(activationMail({ brand, site: address, to, firstName: user.first_name, urlId, t, language: user.language }));
      return { sentTo: to };
    },
    async sendSignInNameNotice(userId, change, site, actor) {
      const user = await services.identity.findById(userId);
      if (!user) throw new ApiError(404, ActivationRefusals.unknownUser);
      const sentTo: string[] = [];
      for (const address of [change.oldEmail ?? change.oldName, change.newName]) {
        if (EMAIL.test(address) && !sentTo.some((a) => a.toLowerCase() === address.toLowerCase())) sentTo.push(address);
      }
      if (!sentTo.length) return { sentTo };
      const brand = services.brands.byId(user.brand) ?? site.brand;
      const address = siteAddressOf(brand, site.host ?? '', site.protocol ?? 'http', config);
      // Another person (an administrator) made the change: the mail is in the language of the account's user.
      const t = (message: Message) => services.messages.t(message, user.language);
      for (const to of sentTo) {
        await services.mail.send(
          signInNameNoticeMail({ brand, site: address, to, firstName: user.first_name, newName: change.newName, t, language: user.language }),
        );
      }
      await services.audit.write({
        action: 'account.signin-name.notice',
        actorUserId: actor?.userId ?? null,
        actorName: actor?.name ?? null,
        entity: 'user',
        entityId: userId,
        detail: { from: change.oldName, to: change.newName, sentTo, brand: brand.id },
      });
      return { sentTo };
    },
    endAccessLinks(userId, tx) {
      return endAccessLinks(tx, userId);
    },
  };
}
