import { hasAnyRole, msg } from '@portal/core';
import { profileService } from '@portal/plugin-profile/service';
import { badRequest, notFound, route, sendDownload } from '@portal/server';
import { DOWNLOAD_FORMS_ACCESS, DOWNLOAD_FORMS_ROUTES, FORMS } from '../../access';
import { DownloadFormsApi } from '../../contract';
import { LETTERS } from '../letters';

export const NO_MEMBER_MESSAGE = 'Your account has no forms of its own. Choose a member to act for first.';
const NOT_FOUND = 'The form was not found.';

export const formRoutes = [
  route(DownloadFormsApi.getByID, {
    access: DOWNLOAD_FORMS_ACCESS,
    handler: async (ctx) => {
      if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
      const form = FORMS.find((f) => f.id === ctx.query.id);
      const role = DOWNLOAD_FORMS_ROUTES.find((r) => r.variant === form?.variant)?.role;
      // A form of another variant than the caller's is as good as missing.
      if (!form || !role || !hasAnyRole(ctx.user?.roles ?? [], [role])) throw notFound(NOT_FOUND);
      const letter = LETTERS[form.id];
      const member = await ctx.services.members.load(ctx.memberId);
      if (!letter || !member) throw notFound(NOT_FOUND);
      const address = await ctx.use(profileService).mailingAddress(ctx.memberId);
      // The member's brand signs the letter (its name, contacts), also when staff download it on the staff site.
      const brand = ctx.services.brands.byId(member.brand) ?? ctx.brand;
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
