import { MEMBER_ROLES, type Role } from '@portal/core';
import { ApiError, badRequest, conflict, hashPassword, notFound, route } from '@portal/server';
import { AccountApi, REGISTRATION_COMPLETE_STEP } from '../../contract';
import { accountService } from '../../service';
import { isUniqueViolation, requireBrand, siteAddress, Text } from '../common';
import { issueLink } from '../links';
import { activationMail } from '../mail-templates';
import { passwordProblems, policyMessage } from '../policy';
import { ACCOUNT_THROTTLE } from '../throttle';

export const registrationRoutes = [
  route(AccountApi.register, {
    access: 'public',
    noFormToken: true,
    handler: async (ctx) => {
      const brand = requireBrand(ctx);
      const { body, database, req, services } = ctx;
      const userName = body.UserName;
      // A password the policy refuses is refused before the limits count the attempt: it costs no hash and no mail and
      // tells nothing about who is registered, and a person mistyping at a shared address (an office, a library)
      // should not use up its registrations. A taken name is counted: answering it tells whether a name exists.
      const problems = passwordProblems(body.Password);
      if (problems.length) throw badRequest(policyMessage(problems));
      await services.throttle.enforce(
        ctx.reply,
        [
          [ACCOUNT_THROTTLE.registerPerAddress, req.ip],
          [ACCOUNT_THROTTLE.registerPerName, userName.toLowerCase()],
        ],
        Text.tooManyRegistrations,
      );
      if (await services.identity.findByName(userName)) {
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
        created = await database.sql.transaction(async (tx) => {
          const member = isMember
            ? await services.members.create({ brand: brand.id, firstName: body.FirstName, lastName: body.LastName, email: userName }, tx)
            : null;
          const userId = await services.identity.createUser(
            {
              userName,
              passwordHash,
              firstName: body.FirstName,
              lastName: body.LastName,
              email: userName,
              brand: brand.id,
              memberId: member?.memberId ?? null,
              roles: role ? [role] : [],
              isActive: activeNow,
              // Brands with a registration wizard start new accounts at step 0; the others start complete.
              registrationStep: brand.registration.wizard ? 0 : REGISTRATION_COMPLETE_STEP,
              // E-mails to the new user are written in the language they registered in.
              language: ctx.language,
            },
            tx,
          );
          await tx.query('INSERT INTO account_registrations (user_id, brand, activated_at) VALUES ($1, $2, $3)', [
            userId,
            brand.id,
            activeNow ? new Date() : null,
          ]);
          const urlId = activeNow ? null : await issueLink(tx, userId, 'activate');
          await ctx.audit(
            {
              action: 'account.register',
              entity: 'user',
              entityId: userId,
              memberId: member?.memberId ?? null,
              detail: { userName, brand: brand.id, role, active: activeNow },
            },
            tx,
          );
          return { userId, memberId: member?.memberId ?? null, memberNumber: member?.memberNumber ?? null, urlId };
        });
      } catch (e) {
        // Two registrations of one name racing: the unique index lets one through.
        if (isUniqueViolation(e)) throw conflict(Text.nameTaken(userName));
        throw e;
      }
      if (created.urlId) {
        try {
          await services.mail.send(
            activationMail({
              brand,
              site: siteAddress(ctx, brand),
              to: userName,
              firstName: body.FirstName,
              urlId: created.urlId,
              t: ctx.t,
              language: ctx.language,
            }),
          );
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
  route(AccountApi.registerStatus, {
    access: 'authenticated',
    handler: async ({ user, services }) => {
      const u = user && (await services.identity.findById(user.id));
      if (!u) throw notFound(Text.noAccount);
      return u.registration_step;
    },
  }),
  route(AccountApi.raiseRegisterStatus, {
    access: 'authenticated',
    // Spec 01 section 4 and issue 14: a lower step (409), a step outside 0-4 and 10 (400), and completion before
    // the registration rules allow it (409) are refused; the same step again changes nothing.
    handler: async (ctx) => {
      if (!ctx.user) throw notFound(Text.noAccount);
      const step = await ctx.use(accountService).setRegistrationStep(ctx.user.id, ctx.query.status, ctx.brand);
      await ctx.audit({ action: 'account.registration.step', entity: 'user', entityId: ctx.user.id, detail: { step } });
      return step;
    },
  }),
  route(AccountApi.registered, {
    access: 'authenticated',
    // status=true marks the registration wizard complete (step 10), under the same rules as the step call;
    // status=false changes nothing (a step never goes back) and reports where the user stands.
    handler: async (ctx) => {
      const { user, services, query } = ctx;
      if (!user) throw notFound(Text.noAccount);
      let step: number | null;
      if (query.status) {
        step = await ctx.use(accountService).setRegistrationStep(user.id, REGISTRATION_COMPLETE_STEP, ctx.brand);
        await ctx.audit({ action: 'account.registration.step', entity: 'user', entityId: user.id, detail: { step } });
      } else {
        step = (await services.identity.findById(user.id))?.registration_step ?? null;
      }
      if (step === null) throw notFound(Text.noAccount);
      return { Registered: step >= REGISTRATION_COMPLETE_STEP, Step: step };
    },
  }),
];
