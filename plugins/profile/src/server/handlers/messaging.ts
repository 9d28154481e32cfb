import { ApiError, badRequest, msg, notFound, type RouteContext, route, withMessage } from '@portal/server';
import { PROFILE_ACCESS } from '../../access';
import { CODE_TTL_SECONDS, ProfileApi, ProfileMessages } from '../../contract';
import { checkCode, hashCode, newCode, storeCode } from '../codes';
import { ownMemberId } from '../members';
import { PROFILE_THROTTLE } from '../throttle';

export const SMS_SEND_JOB = 'profile.sms.send';
export interface SmsJob {
  to: string;
  text: string;
  brand?: string;
}

/** The member a messaging call names: only the one the request acts for; any other id is 404. */
function memberOf(ctx: Pick<RouteContext, 'memberId'>, memberId: number): number {
  const own = ownMemberId(ctx);
  if (memberId !== own) throw notFound(ProfileMessages.notFound);
  return own;
}

async function lookup(ctx: Pick<RouteContext, 'services'>, digits: string) {
  try {
    return await ctx.services.sms.lookup(`+1${digits}`);
  } catch {
    throw new ApiError(503, 'The phone check service is not answering. Please try again in a moment.');
  }
}

export const messagingRoutes = [
  route(ProfileApi.requestCode, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const { body, services, database, config, brand } = ctx;
      const memberId = memberOf(ctx, body.MemberId);
      const phone = body.PhoneNumber;
      const member = await services.members.load(memberId);
      if (!member) throw notFound(ProfileMessages.notFound);
      if (member.mobilePhone !== phone) throw badRequest(ProfileMessages.saveMobileFirst);
      const found = await lookup(ctx, phone);
      if (!found.phoneNumber) throw badRequest(ProfileMessages.phoneInvalid(phone));
      if (found.lineType !== 'mobile') throw badRequest(ProfileMessages.notMobile);
      await services.throttle.enforce(
        ctx.reply,
        [
          [PROFILE_THROTTLE.codesPerNumber, phone],
          [PROFILE_THROTTLE.codesPerMember, String(memberId)],
        ],
        ProfileMessages.tooManyCodes,
      );
      const code = newCode();
      await database.sql.transaction(async (tx) => {
        await storeCode(tx, memberId, phone, hashCode(config.tokenSecret, memberId, phone, code));
        // Spec 01 section 4: sending a code marks the phone unverified.
        await services.members.set(memberId, { isPhoneValidated: false }, tx);
        await ctx.audit(
          { action: 'profile.phone.code.request', entity: 'member', entityId: memberId, memberId, detail: { phone: `***${phone.slice(-4)}` } },
          tx,
        );
      });
      // After the commit: a job send is its own statement (docs/ARCHITECTURE.md, Background jobs). The member's own
      // brand signs it, whatever site the request came in on (staff acting for them from the staff site).
      const signedBy = services.brands.byId(member.brand) ?? brand;
      const text = msg('{{brand}}: your verification code is {{code}}. It expires in {{minutes}} minutes.', {
        brand: signedBy?.displayName ?? msg('Member portal'),
        code,
        minutes: CODE_TTL_SECONDS / 60,
      });
      // The member reads it: in the language of their request, or, when staff act for them, in the member's own.
      const language = ctx.impersonating ? await services.identity.languageOfMember(memberId) : ctx.language;
      await services.jobs.send<SmsJob>(SMS_SEND_JOB, {
        to: `+1${phone}`,
        text: services.messages.t(text, language),
        ...(signedBy ? { brand: signedBy.id } : {}),
      });
      return withMessage(null, ProfileMessages.codeSent(phone));
    },
  }),
  route(ProfileApi.verifyCode, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const { body, services, database, config } = ctx;
      const memberId = memberOf(ctx, body.MemberId);
      const phone = body.PhoneNumber;
      const verified = await database.sql.transaction(async (tx) => {
        const outcome = await checkCode(tx, memberId, phone, hashCode(config.tokenSecret, memberId, phone, body.Code));
        const member = await services.members.load(memberId, tx);
        const ok = outcome === 'confirmed' && member?.mobilePhone === phone;
        // At the version read: a profile save that changed the mobile number meanwhile is refused here (409), so the
        // new number is never marked verified by a code sent to the old one.
        if (ok && member) await services.members.update(memberId, member.version, { isPhoneValidated: true }, tx);
        await ctx.audit(
          {
            action: 'profile.phone.code.verify',
            outcome: ok ? 'success' : 'failure',
            entity: 'member',
            entityId: memberId,
            memberId,
            detail: { phone: `***${phone.slice(-4)}`, outcome },
          },
          tx,
        );
        return ok;
      });
      return { CodeVerified: verified };
    },
  }),
  route(ProfileApi.phoneCheck, {
    access: PROFILE_ACCESS,
    handler: async (ctx) => {
      const digits = ctx.body.PhoneNumber.replace(/\D/g, '');
      if (digits.length !== 10) return { PhoneNumber: null, LineType: null, Carrier: null };
      await ctx.services.throttle.enforce(ctx.reply, [[PROFILE_THROTTLE.phoneChecksPerUser, ctx.user?.id ?? ctx.req.ip]], ProfileMessages.tooManyChecks);
      const found = await lookup(ctx, digits);
      return { PhoneNumber: found.phoneNumber, LineType: found.lineType, Carrier: found.carrier };
    },
  }),
];
