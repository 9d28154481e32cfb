import { type Message, msg } from '@portal/core';
import type { PdfBlock } from '@portal/server';

export interface LetterData {
  name: string;
  memberNumber: string;
  addressLines: string[];
  /** The brand's name, else a message for "the program" (translated with the text it goes into). */
  program: Message;
  /** The brand's support phone; null: none to give, and the letter leaves out the line asking to call it. */
  phone: string | null;
}

/** A message in the letter's language (the reader's: `ctx.t`), for a value that is a word. */
export type Translate = (message: Message) => string;

export interface Letter {
  title: Message;
  /** The download's name: ASCII, English and stable whatever the letter's language. */
  fileName: string;
  body: (d: LetterData, t: Translate) => PdfBlock[];
}

const recipient = (d: LetterData, t: Translate): PdfBlock => ({
  type: 'keyValue',
  rows: [
    { label: 'Member', value: d.name },
    { label: 'Member number', value: d.memberNumber },
    { label: 'Address', value: d.addressLines.length > 0 ? d.addressLines.join(', ') : t('No address on file') },
  ],
});
const signature = (d: LetterData): PdfBlock[] => [
  { type: 'paragraph', text: 'Signature: ______________________________   Date: ____________' },
  // The member's name under the line: a value, never looked up as a word.
  { type: 'paragraph', text: msg('{{name}}', { name: d.name }) },
];
/** The closing line giving the phone to call; none without a phone (never "Call the program at ."). */
const questions = (d: LetterData): PdfBlock[] =>
  d.phone ? [{ type: 'paragraph', text: msg('Questions? Call {{program}} at {{phone}}.', { program: d.program, phone: d.phone }) }] : [];

/** The two letters of each variant, by form id (see FORMS in access.ts), in the reader's language. */
export const LETTERS: Record<number, Letter> = {
  1: {
    title: 'Authorization to Release Information',
    fileName: 'authorization-to-release-information.pdf',
    body: (d, t) => [
      recipient(d, t),
      {
        type: 'paragraph',
        text: msg(
          'I authorize {{program}} to receive from and share with my medical providers, pharmacies and the Centers for Medicare & Medicaid Services the billing and payment information needed to administer my set-aside account. This authorization stays in effect until I revoke it in writing.',
          { program: d.program },
        ),
      },
      ...signature(d),
      ...questions(d),
    ],
  },
  2: {
    title: 'Provider Payment Direction Letter',
    fileName: 'provider-payment-direction-letter.pdf',
    body: (d, t) => [
      recipient(d, t),
      { type: 'paragraph', text: 'To my provider:' },
      {
        type: 'paragraph',
        text: msg(
          'Please send bills for my injury-related care to {{program}}, which pays them from my set-aside account. Include my member number {{memberNumber}} on every bill.',
          { program: d.program, memberNumber: d.memberNumber },
        ),
      },
      ...signature(d),
      ...questions(d),
    ],
  },
  3: {
    title: 'Prepaid Card Dispute Letter',
    fileName: 'prepaid-card-dispute-letter.pdf',
    body: (d, t) => [
      recipient(d, t),
      {
        type: 'paragraph',
        text: msg(
          'I dispute the following transaction on my {{program}} prepaid card. Date: ____________  Merchant: ______________________  Amount: $__________. Reason: ____________________________________________.',
          { program: d.program },
        ),
      },
      ...signature(d),
      ...questions(d),
    ],
  },
  4: {
    title: 'Pharmacy Card Acceptance Letter',
    fileName: 'pharmacy-card-acceptance-letter.pdf',
    body: (d, t) => [
      recipient(d, t),
      { type: 'paragraph', text: 'To the pharmacist:' },
      {
        type: 'paragraph',
        text: msg(
          "{{name}} is a member of {{program}}. Please bill prescriptions to the plan printed on the member's prescription card; the member's copay is $0.",
          { name: d.name, program: d.program },
        ),
      },
      ...questions(d),
    ],
  },
  5: {
    title: 'Assistance Program Enrollment Letter',
    fileName: 'assistance-program-enrollment-letter.pdf',
    body: (d, t) => [
      recipient(d, t),
      {
        type: 'paragraph',
        text: msg('This letter confirms that {{name}} is enrolled in {{program}} under member number {{memberNumber}}.', {
          name: d.name,
          program: d.program,
          memberNumber: d.memberNumber,
        }),
      },
      ...questions(d),
    ],
  },
  6: {
    title: 'Proof of Income Letter',
    fileName: 'proof-of-income-letter.pdf',
    body: (d, t) => [
      recipient(d, t),
      {
        type: 'paragraph',
        text: msg(
          "I, {{name}}, state that my household's yearly income is $______________ for a household of ____ people. I include copies of my most recent tax return or pay stubs.",
          { name: d.name },
        ),
      },
      ...signature(d),
      ...questions(d),
    ],
  },
};
