import type { PdfBlock } from '@portal/server';

export interface LetterData {
  name: string;
  memberNumber: string;
  addressLines: string[];
  program: string;
  phone: string;
}

export interface Letter {
  title: string;
  fileName: string;
  body: (d: LetterData) => PdfBlock[];
}

const recipient = (d: LetterData): PdfBlock => ({
  type: 'keyValue',
  rows: [
    { label: 'Member', value: d.name },
    { label: 'Member number', value: d.memberNumber },
    { label: 'Address', value: d.addressLines.length > 0 ? d.addressLines.join(', ') : 'No address on file' },
  ],
});
const signature = (d: LetterData): PdfBlock => ({ type: 'paragraph', text: `Signature: ______________________________   Date: ____________\n\n${d.name}` });
// english-only: PDF letter text (the letters are English, see the README)
const questions = (d: LetterData): PdfBlock => ({ type: 'paragraph', text: `Questions? Call ${d.program} at ${d.phone}.` });

/** The two letters of each variant, by form id (see FORMS in access.ts). */
export const LETTERS: Record<number, Letter> = {
  1: {
    title: 'Authorization to Release Information',
    fileName: 'authorization-to-release-information.pdf',
    body: (d) => [
      recipient(d),
      {
        type: 'paragraph',
        // english-only: PDF letter text (the letters are English, see the README)
        text: `I authorize ${d.program} to receive from and share with my medical providers, pharmacies and the Centers for Medicare & Medicaid Services the billing and payment information needed to administer my set-aside account. This authorization stays in effect until I revoke it in writing.`,
      },
      signature(d),
      questions(d),
    ],
  },
  2: {
    title: 'Provider Payment Direction Letter',
    fileName: 'provider-payment-direction-letter.pdf',
    body: (d) => [
      recipient(d),
      { type: 'paragraph', text: 'To my provider:' },
      {
        type: 'paragraph',
        // english-only: PDF letter text (the letters are English, see the README)
        text: `Please send bills for my injury-related care to ${d.program}, which pays them from my set-aside account. Include my member number ${d.memberNumber} on every bill.`,
      },
      signature(d),
      questions(d),
    ],
  },
  3: {
    title: 'Prepaid Card Dispute Letter',
    fileName: 'prepaid-card-dispute-letter.pdf',
    body: (d) => [
      recipient(d),
      {
        type: 'paragraph',
        // english-only: PDF letter text (the letters are English, see the README)
        text: `I dispute the following transaction on my ${d.program} prepaid card. Date: ____________  Merchant: ______________________  Amount: $__________. Reason: ____________________________________________.`,
      },
      signature(d),
      questions(d),
    ],
  },
  4: {
    title: 'Pharmacy Card Acceptance Letter',
    fileName: 'pharmacy-card-acceptance-letter.pdf',
    body: (d) => [
      recipient(d),
      { type: 'paragraph', text: 'To the pharmacist:' },
      {
        type: 'paragraph',
        text: `${d.name} is a member of ${d.program}. Please bill prescriptions to the plan printed on the member's prescription card; the member's copay is $0.`,
      },
      questions(d),
    ],
  },
  5: {
    title: 'Assistance Program Enrollment Letter',
    fileName: 'assistance-program-enrollment-letter.pdf',
    body: (d) => [
      recipient(d),
      // english-only: PDF letter text (the letters are English, see the README)
      { type: 'paragraph', text: `This letter confirms that ${d.name} is enrolled in ${d.program} under member number ${d.memberNumber}.` },
      questions(d),
    ],
  },
  6: {
    title: 'Proof of Income Letter',
    fileName: 'proof-of-income-letter.pdf',
    body: (d) => [
      recipient(d),
      {
        type: 'paragraph',
        // english-only: PDF letter text (the letters are English, see the README)
        text: `I, ${d.name}, state that my household's yearly income is $______________ for a household of ____ people. I include copies of my most recent tax return or pay stubs.`,
      },
      signature(d),
      questions(d),
    ],
  },
};
