import { route, sendDownload } from '@portal/server';
import { PRINT_CARD_ACCESS } from '../../access';
import { PrintCardApi } from '../../contract';
import { loadCard } from '../card';

/** The print-card calls (spec 02 section 7). Always the acting member's card; every read audited. */
export const cardRoutes = [
  route(PrintCardApi.getByID, {
    access: PRINT_CARD_ACCESS,
    handler: async (ctx) => {
      const { memberId, brand: _brand, ...card } = await loadCard(ctx);
      ctx.auditRead({ action: 'printcard.read', entity: 'member', entityId: memberId, memberId });
      return card;
    },
  }),
  route(PrintCardApi.prescriptionPlan, {
    access: PRINT_CARD_ACCESS,
    handler: async (ctx) => {
      const card = await loadCard(ctx);
      ctx.auditRead({ action: 'printcard.plan.read', entity: 'member', entityId: card.memberId, memberId: card.memberId });
      return { MemberNumber: card.MemberNumber, FirstName: card.FirstName, LastName: card.LastName, BIN: card.BIN, PCN: card.PCN, GroupId: card.GroupId };
    },
  }),
  route(PrintCardApi.download, {
    access: PRINT_CARD_ACCESS,
    handler: async (ctx) => {
      const card = await loadCard(ctx);
      ctx.auditRead({ action: 'printcard.download', entity: 'member', entityId: card.memberId, memberId: card.memberId });
      // The card's faces as the page's Print card shows them: the front under the program's band, then the back.
      const front = [
        { label: 'Member', value: `${card.FirstName} ${card.LastName}` },
        { label: 'Member number', value: card.MemberNumber },
        { label: 'BIN', value: card.BIN },
        { label: 'PCN', value: card.PCN },
        { label: 'Group', value: card.GroupId },
        { label: 'Copay', value: card.Copay },
      ];
      const back = [
        { label: 'Pharmacy benefit manager', value: card.PBMVendor },
        { label: 'Pharmacist help desk', value: card.VendorPhone },
        // No support line to give (a safeguard: every brand's manifest has one): no empty row.
        ...(card.SupportPhone ? [{ label: 'Member support', value: card.SupportPhone }] : []),
        { label: 'Payer number', value: card.PayerNumber },
      ];
      return sendDownload(ctx.reply, {
        fileName: `prescription-card-${card.MemberNumber}.pdf`,
        contentType: 'application/pdf',
        // The card in the reader's language: its words translated; its values (names, codes, phones, the configured
        // copay amount) are data, printed as given. The file name stays English.
        body: ctx.services.pdf.render({
          title: 'Prescription card',
          language: ctx.language,
          // The member's brand heads and signs it, also when staff download it on the staff site.
          brand: card.brand ?? undefined,
          blocks: [
            // The wallet-size card to cut out and fold (the kernel's card block, ID-1 size), then the same details in
            // reading size.
            { type: 'card', faces: [{ band: card.ProgramName, rows: front }, { rows: back }] },
            { type: 'paragraph', text: 'Print at 100% (actual size), cut along the dashed line and fold along the dotted line.' },
            { type: 'heading', text: 'Front' },
            { type: 'keyValue', rows: [{ label: 'Program', value: card.ProgramName }, ...front] },
            { type: 'heading', text: 'Back' },
            { type: 'keyValue', rows: back },
            { type: 'paragraph', text: 'Present this card at the pharmacy with your prescription.' },
          ],
        }),
      });
    },
  }),
];
