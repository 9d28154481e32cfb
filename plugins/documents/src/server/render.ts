import type { BrandManifest, Language, Message } from '@portal/core';
import { type DayStyle, formatCents, formatIsoDayText, localeOf, msg } from '@portal/core';
import type { LedgerEntry, LedgerService } from '@portal/plugin-ledger/service';
import type { KernelServices, MemberRecord, PdfBlock } from '@portal/server';
import { DocumentType } from '../contract';
import { lastDayOfMonth } from './catalog';
import { deterministicPdf } from './deterministic';
import type { Adjustment, StatementSnapshot } from './freeze';

export interface StoredDocument {
  document_id: number;
  member_id: number;
  document_type_id: number;
  period_key: string;
  effective_date: string;
  /** 'uploaded': a file staff added (file_key, file_name); 'generated': rendered from the ledger. */
  source?: string;
  file_key?: string | null;
  file_name?: string | null;
}

const monthFormats = new Map<Language, Intl.DateTimeFormat>();
/** A month ('YYYY-MM') by name in the language: 'March 2026', 'marzo de 2026'. */
export function monthName(month: string, language: Language = 'en'): string {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7)) - 1;
  if (!/^\d{4}-\d{2}$/.test(month) || index < 0 || index > 11) return month;
  let format = monthFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(localeOf(language), { month: 'long', year: 'numeric', timeZone: 'UTC' });
    monthFormats.set(language, format);
  }
  return format.format(new Date(Date.UTC(year, index, 1)));
}

/** The kinds' names: English, and the keys of their translations (`ctx.t`). */
export const TYPE_NAMES: Record<number, string> = {
  [DocumentType.Form1099]: '1099',
  [DocumentType.AnnualAccounting]: 'Annual Accounting',
  [DocumentType.TemporaryDepletion]: 'Temporary Depletion Letter',
  [DocumentType.PermanentDepletion]: 'Permanent Depletion Letter',
  [DocumentType.MonthlyStatement]: 'Monthly Statement',
};

/**
 * The title (a message: `ctx.t` writes it in the reader's language, a month name in `language`) and the file name
 * (English and ASCII whatever the language: stable) of a document.
 */
export function describe(
  d: Pick<StoredDocument, 'document_type_id' | 'period_key' | 'source' | 'file_name'>,
  language: Language = 'en',
): { title: Message; fileName: string } {
  if (d.source === 'uploaded' && d.file_name)
    return {
      title: msg('{{type}}: {{name}}', { type: msg(TYPE_NAMES[d.document_type_id] ?? 'Document'), name: d.file_name.replace(/\.pdf$/i, '') }),
      fileName: d.file_name,
    };
  const key = d.period_key;
  // A depletion letter's day as the reader's language writes one ('May 10, 2025', '10 may 2025'); its file name keeps 'YYYY-MM-DD'.
  const day = () => formatIsoDayText(key, 'medium', localeOf(language));
  switch (d.document_type_id) {
    case DocumentType.Form1099:
      return { title: msg('1099-INT {{year}}', { year: key }), fileName: `1099-INT-${key}.pdf` };
    case DocumentType.AnnualAccounting:
      return { title: msg('Annual Accounting {{year}}', { year: key }), fileName: `annual-accounting-${key}.pdf` };
    case DocumentType.TemporaryDepletion:
      return { title: msg('Temporary Depletion Letter {{date}}', { date: day() }), fileName: `temporary-depletion-letter-${key}.pdf` };
    case DocumentType.PermanentDepletion:
      return { title: msg('Permanent Depletion Letter {{date}}', { date: day() }), fileName: `permanent-depletion-letter-${key}.pdf` };
    case DocumentType.MonthlyStatement:
      return { title: msg('Statement {{month}}', { month: monthName(key, language) }), fileName: `statement-${key}.pdf` };
    default:
      return { title: msg('Document {{key}}', { key }), fileName: `document-${key}.pdf` };
  }
}

interface RenderInput {
  doc: StoredDocument;
  /** A monthly statement's frozen figures (freeze.ts): a statement is rendered from these only, never from the ledger. */
  snapshot?: StatementSnapshot;
  member: MemberRecord;
  brand: BrandManifest | null;
  ledger: LedgerService;
  services: KernelServices;
  /** The reader's language (`ctx.language`): the document's words, month names and amounts are written in it. */
  language: Language;
  /** A message in that language (`ctx.t`), for the values that are words (a row's type, the statement period). */
  t: (message: Message) => string;
  /** A 1099's Box 1 as furnished now (`form1099Interest`), and whether it corrects a different figure furnished before. */
  form1099?: { interestCents: number; corrected: boolean };
}

/** A 1099's Box 1: the year's interest rows in the ledger as it is now. */
export async function form1099Interest(ledger: LedgerService, memberId: number, year: string): Promise<number> {
  const p = await ledger.period(memberId, `${year}-01-01`, `${year}-12-31`);
  return p.rows.filter((r) => r.typeId === 3).reduce((n, r) => n + r.signedCents, 0);
}

const memberRows = (m: MemberRecord) => [
  { label: 'Member', value: `${m.firstName} ${m.lastName}` },
  { label: 'Member number', value: m.memberNumber },
];

const contactsLine = (brand: BrandManifest | null): Message =>
  brand
    ? msg('Questions? Call {{phone}} or write to {{email}}.', { phone: brand.contacts.phone, email: brand.contacts.supportEmail })
    : 'Questions? Contact member support.';

/** An adjustment's line: what happened to the row (or the initial balance), in the reader's language. */
function adjustmentText(a: Adjustment, money: (cents: number) => string): Message {
  const text = [a.company, a.description].filter(Boolean).join(' - ');
  switch (a.kind) {
    case 'initial':
      return msg('Initial balance changed to {{now}}, was {{was}}', { now: money((a.wasCents ?? 0) + a.cents), was: money(a.wasCents ?? 0) });
    case 'changed':
      return msg('Corrected: {{text}}, was {{was}}', { text, was: money(a.wasCents ?? 0) });
    case 'removed':
      return msg('Removed: {{text}}', { text });
    case 'moved':
      return msg('Moved to {{date}}: {{text}}', { date: a.movedTo ?? '', text });
    default:
      return msg('Added: {{text}}', { text });
  }
}

/**
 * Renders a generated document in the reader's language: the same bytes for the same data and language. A monthly
 * statement from its frozen figures (`snapshot`), the 1099 and the annual accounting from the ledger as it is now,
 * letters from their day. Its words are messages the kernel's PDF service writes through the catalogues; the values
 * that are words (a row's type, the period) are translated here, and amounts and month names formatted in the language.
 */
export async function renderGenerated({ doc, snapshot, member, brand, ledger, services, language, t, form1099 }: RenderInput): Promise<Buffer> {
  const money = (cents: number) => formatCents(cents, localeOf(language));
  const dayText = (iso: string, style: DayStyle = 'medium') => formatIsoDayText(iso, style, localeOf(language));
  const { title } = describe(doc, language);
  const base = { title, language, brand: brand ?? undefined };
  type Row = Pick<LedgerEntry, 'date' | 'company' | 'description' | 'typeName' | 'signedCents' | 'balanceCents'>;
  const rowsTable = (rows: readonly Row[]) => ({
    type: 'table' as const,
    columns: [
      { header: 'Date', width: 70 },
      { header: 'Description', width: 200 },
      { header: 'Type', width: 70 },
      { header: 'Amount', width: 80, align: 'right' as const },
      { header: 'Balance', width: 84, align: 'right' as const },
    ],
    rows: rows.map((r) => [r.date, [r.company, r.description].filter(Boolean).join(' - '), t(r.typeName), money(r.signedCents), money(r.balanceCents)]),
  });
  switch (doc.document_type_id) {
    case DocumentType.MonthlyStatement: {
      // Frozen when issued: later changes to this month show on the next statement, as adjustments to earlier periods.
      if (!snapshot) throw new Error(`statement ${doc.document_id} rendered without its snapshot`);
      const s = snapshot;
      const from = `${doc.period_key}-01`;
      const to = lastDayOfMonth(doc.period_key);
      const period = t(msg('{{month}} ({{from}} to {{to}})', { month: monthName(doc.period_key, language), from: dayText(from), to: dayText(to) }));
      const adjusted = s.adjustments.reduce((n, a) => n + a.cents, 0);
      const adjustments: PdfBlock[] =
        s.adjustments.length === 0
          ? []
          : [
              { type: 'heading', text: 'Adjustments to earlier periods' },
              {
                type: 'paragraph',
                text: 'Changes to transactions dated before this period, made after the statement that covered them was issued.',
              },
              {
                type: 'table',
                columns: [
                  { header: 'Date', width: 70 },
                  { header: 'Description', width: 270 },
                  { header: 'Type', width: 70 },
                  { header: 'Amount', width: 94, align: 'right' },
                ],
                rows: s.adjustments.map((a) => [a.date ?? '', t(adjustmentText(a, money)), a.typeName ? t(a.typeName) : '', money(a.cents)]),
              },
              { type: 'keyValue', rows: [{ label: 'Total adjustments', value: money(adjusted) }] },
            ];
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            {
              type: 'keyValue',
              rows: [...memberRows(member), { label: 'Statement period', value: period }, { label: 'Issued on', value: dayText(s.issuedOn) }],
            },
            { type: 'keyValue', rows: [{ label: 'Opening balance', value: money(s.openingCents) }] },
            ...adjustments,
            { type: 'heading', text: 'Transactions' },
            s.rows.length > 0 ? rowsTable(s.rows) : { type: 'paragraph', text: 'No transactions this month.' },
            { type: 'keyValue', rows: [{ label: 'Closing balance', value: money(s.closingCents) }] },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        to,
      );
    }
    case DocumentType.Form1099: {
      const interest = form1099?.interestCents ?? (await form1099Interest(ledger, member.memberId, doc.period_key));
      const corrected: PdfBlock[] = form1099?.corrected
        ? [
            { type: 'heading', text: 'CORRECTED' },
            { type: 'paragraph', text: 'This form corrects the one furnished earlier for this tax year.' },
          ]
        : [];
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            ...corrected,
            {
              type: 'paragraph',
              text: msg('Form 1099-INT: interest income for tax year {{year}}. A copy is furnished to the Internal Revenue Service.', {
                year: doc.period_key,
              }),
            },
            {
              type: 'keyValue',
              rows: [...memberRows(member), { label: 'Payer', value: brand?.displayName ?? '' }, { label: 'Tax year', value: doc.period_key }],
            },
            { type: 'keyValue', rows: [{ label: 'Box 1 Interest income', value: money(interest) }] },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        `${doc.period_key}-12-31`,
      );
    }
    case DocumentType.AnnualAccounting: {
      const p = await ledger.period(member.memberId, `${doc.period_key}-01-01`, `${doc.period_key}-12-31`);
      const sum = (type: number) => p.rows.filter((r) => r.typeId === type).reduce((n, r) => n + Math.abs(r.signedCents), 0);
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            { type: 'keyValue', rows: [...memberRows(member), { label: 'Year', value: doc.period_key }] },
            {
              type: 'keyValue',
              rows: [
                { label: 'Opening balance', value: money(p.openingCents) },
                { label: 'Deposits', value: money(sum(2)) },
                { label: 'Interest', value: money(sum(3)) },
                { label: 'Expenses', value: money(sum(1)) },
                { label: 'Closing balance', value: money(p.closingCents) },
              ],
            },
            { type: 'heading', text: 'Transactions' },
            p.rows.length > 0 ? rowsTable(p.rows) : { type: 'paragraph', text: 'No transactions this year.' },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        `${doc.period_key}-12-31`,
      );
    }
    default: {
      // The day the balance reached zero, written as the reader's language writes a day ('March 15, 2026', '15 de marzo de 2026').
      const date = dayText(doc.period_key, 'long');
      const text =
        doc.document_type_id === DocumentType.PermanentDepletion
          ? msg(
              'Your set-aside account reached a zero balance on {{date}} and has no further funding scheduled. Medicare is now the primary payer for your injury-related care; please give this letter to your providers.',
              { date },
            )
          : msg(
              'Your set-aside account reached a zero balance on {{date}}. This depletion is temporary: the account will be funded again by your next scheduled deposit. Until then, Medicare may be billed for injury-related care; please give this letter to your providers.',
              { date },
            );
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            { type: 'keyValue', rows: [...memberRows(member), { label: 'Date of depletion', value: date }] },
            { type: 'paragraph', text: msg('Dear {{firstName}} {{lastName}},', { firstName: member.firstName, lastName: member.lastName }) },
            { type: 'paragraph', text },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        doc.period_key,
      );
    }
  }
}
