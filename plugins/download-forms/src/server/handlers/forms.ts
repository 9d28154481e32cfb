import { hasAnyRole, msg } from '@portal/core';
import { profileService } from '@portal/plugin-profile/service';
import { badRequest, conflict, notFound, route, sendDownload } from '@portal/server';
import { DOWNLOAD_FORMS_ACCESS, DOWNLOAD_FORMS_ROUTES, FORMS } from '../../access';
import { DownloadFormsApi } from '../../contract';
import { LETTERS } from '../letters';
import { callUs, NO_MEMBER_MESSAGE, NO_MEMBER_NO_PHONE_MESSAGE, supportPhone, TERMINATED_MESSAGE, TERMINATED_NO_PHONE_MESSAGE } from '../phone';

const NOT_FOUND = 'The form was not found.';

export const formRoutes = [
  route(DownloadFormsApi.getByID, {
    access: DOWNLOAD_FORMS_ACCESS,
    handler: async (ctx) => {
      // No member record, so no member's brand: the site's phone (none: the message without it).
      if (ctx.memberId === null) throw badRequest(callUs(NO_MEMBER_MESSAGE, NO_MEMBER_NO_PHONE_MESSAGE, supportPhone(ctx.brand)));
      const form = FORMS.find((f) => f.id === ctx.query.id);
      const role = DOWNLOAD_FORMS_ROUTES.find((r) => r.variant === form?.variant)?.role;
      // A form of another variant than the caller's is as good as missing.
      if (!form || !role || !hasAnyRole(ctx.user?.roles ?? [], [role])) throw notFound(NOT_FOUND);
      const letter = LETTERS[form.id];
      const member = await ctx.services.members.load(ctx.memberId);
      if (!letter || !member) throw notFound(NOT_FOUND);
      // The member's brand signs the letter (its name, contacts), also when the member signs in on another brand's
      // site; the site's brand only for a member of a brand this API does not serve.
      const brand = ctx.services.brands.byId(member.brand) ?? ctx.brand;
      const phone = supportPhone(brand);
      if (await ctx.services.members.isTerminated(member.memberId)) throw conflict(callUs(TERMINATED_MESSAGE, TERMINATED_NO_PHONE_MESSAGE, phone));
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
              phone,
            },
            (m) => ctx.t(m),
          ),
        }),
      });
    },
  }),
];
