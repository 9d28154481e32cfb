import { hasAnyRole, msg } from '@portal/core';
import { profileService } from '@portal/plugin-profile/service';
import { badRequest, conflict, notFound, route, sendDownload } from '@portal/server';
import { DOWNLOAD_FORMS_ACCESS, DOWNLOAD_FORMS_ROUTES, FORMS } from '../../access';
import { DownloadFormsApi } from '../../contract';
import { LETTERS } from '../letters';

/** A member-role login with no member record (only staff act for a member, and staff have no forms screen). */
export const NO_MEMBER_MESSAGE = 'Your account has no member record yet, so it has no forms. Please call us at {{phone}}.';
/** The membership has ended: no letter (an enrollment letter above all) may speak for a membership that is over. */
export const TERMINATED_MESSAGE = 'Your membership has ended, so these forms can no longer be downloaded. Questions? Call us at {{phone}}.';
const NOT_FOUND = 'The form was not found.';

export const formRoutes = [
  route(DownloadFormsApi.getByID, {
    access: DOWNLOAD_FORMS_ACCESS,
    handler: async (ctx) => {
      if (ctx.memberId === null) throw badRequest(msg(NO_MEMBER_MESSAGE, { phone: ctx.brand?.contacts.phone ?? '' }));
      const form = FORMS.find((f) => f.id === ctx.query.id);
      const role = DOWNLOAD_FORMS_ROUTES.find((r) => r.variant === form?.variant)?.role;
      // A form of another variant than the caller's is as good as missing.
      if (!form || !role || !hasAnyRole(ctx.user?.roles ?? [], [role])) throw notFound(NOT_FOUND);
      const letter = LETTERS[form.id];
      const member = await ctx.services.members.load(ctx.memberId);
      if (!letter || !member) throw notFound(NOT_FOUND);
      // The member's brand signs the letter (its name, contacts), also when staff download it on the staff site.
      const brand = ctx.services.brands.byId(member.brand) ?? ctx.brand;
      if (await ctx.services.members.isTerminated(member.memberId)) throw conflict(msg(TERMINATED_MESSAGE, { phone: brand?.contacts.phone ?? '' }));
      const address = await ctx.use(profileService).mailingAddress(ctx.memberId);
      ctx.auditRead({ action: 'downloadforms.download', entity: 'member', entityId: ctx.memberId, memberId: ctx.memberId, detail: { form: form.id } });
      return sendDownload(ctx.reply, {
        fileName: letter.fileName,
        contentType: 'application/pdf',
        // The letter in the reader's language (the member's, or the staff member's acting for one); its file name stays.
        body: ctx.services.pdf.render({
          title: letter.title,
          language: ctx.language,
          brand: brand ?? undefined,
          blocks: letter.body(
            {
              name: `${member.firstName} ${member.lastName}`,
              memberNumber: member.memberNumber,
              addressLines: address
                ? [address.address1, address.address2, `${address.city}, ${address.state} ${address.zip}`].filter((l): l is string => !!l)
                : [],
              program: brand?.displayName ?? msg('the program'),
              phone: brand?.contacts.phone ?? '',
            },
            (m) => ctx.t(m),
          ),
        }),
      });
    },
  }),
];
