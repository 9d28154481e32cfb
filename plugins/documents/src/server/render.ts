import type { BrandManifest } from '@portal/core';
import { formatCents } from '@portal/core';
import type { LedgerService } from '@portal/plugin-ledger/service';
import type { KernelServices, MemberRecord } from '@portal/server';
import { DocumentType } from '../contract';
import { lastDayOfMonth } from './catalog';
import { deterministicPdf } from './deterministic';

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

const money = (cents: number) => formatCents(cents, 'en-US');
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const monthName = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1] ?? month.slice(5, 7)} ${month.slice(0, 4)}`;

export const TYPE_NAMES: Record<number, string> = {
  [DocumentType.Form1099]: '1099',
  [DocumentType.AnnualAccounting]: 'Annual Accounting',
  [DocumentType.TemporaryDepletion]: 'Temporary Depletion Letter',
  [DocumentType.PermanentDepletion]: 'Permanent Depletion Letter',
  [DocumentType.MonthlyStatement]: 'Monthly Statement',
};

/** The title and file name of a generated document. */
export function describe(d: Pick<StoredDocument, 'document_type_id' | 'period_key' | 'source' | 'file_name'>): { title: string; fileName: string } {
  if (d.source === 'uploaded' && d.file_name)
    return { title: `${TYPE_NAMES[d.document_type_id] ?? 'Document'}: ${d.file_name.replace(/\.pdf$/i, '')}`, fileName: d.file_name };
  switch (d.document_type_id) {
    case DocumentType.Form1099:
      return { title: `1099-INT ${d.period_key}`, fileName: `1099-INT-${d.period_key}.pdf` };
    case DocumentType.AnnualAccounting:
      return { title: `Annual Accounting ${d.period_key}`, fileName: `annual-accounting-${d.period_key}.pdf` };
    case DocumentType.TemporaryDepletion:
      return { title: `Temporary Depletion Letter ${d.period_key}`, fileName: `temporary-depletion-letter-${d.period_key}.pdf` };
    case DocumentType.PermanentDepletion:
      return { title: `Permanent Depletion Letter ${d.period_key}`, fileName: `permanent-depletion-letter-${d.period_key}.pdf` };
    case DocumentType.MonthlyStatement:
      return { title: `Statement ${monthName(d.period_key)}`, fileName: `statement-${d.period_key}.pdf` };
    default:
      return { title: `Document ${d.period_key}`, fileName: `document-${d.period_key}.pdf` };
  }
}

interface RenderInput {
  doc: StoredDocument;
  member: MemberRecord;
  brand: BrandManifest | null;
  ledger: LedgerService;
  services: KernelServices;
}

const memberRows = (m: MemberRecord) => [
  { label: 'Member', value: `${m.firstName} ${m.lastName}` },
  { label: 'Member number', value: m.memberNumber },
];

const contactsLine = (brand: BrandManifest | null) =>
  // english-only: PDF text (generated documents are English: the same bytes for the same data)
  brand ? `Questions? Call ${brand.contacts.phone} or write to ${brand.contacts.supportEmail}.` : 'Questions? Contact member support.';

/**
 * Renders a generated document from the ledger: the same bytes for the same data. The documents are English whatever
 * the reader's language (their texts are marked english-only for the server-messages scan); the screens around them are translated.
 */
export async function renderGenerated({ doc, member, brand, ledger, services }: RenderInput): Promise<Buffer> {
  const { title } = describe(doc);
  const base = { title, brand: brand ?? undefined };
  const rowsTable = (rows: Awaited<ReturnType<LedgerService['period']>>['rows']) => ({
    type: 'table' as const,
    columns: [
      { header: 'Date', width: 70 },
      { header: 'Description', width: 200 },
      { header: 'Type', width: 70 },
      { header: 'Amount', width: 80, align: 'right' as const },
      { header: 'Balance', width: 84, align: 'right' as const },
    ],
    rows: rows.map((r) => [r.date, [r.company, r.description].filter(Boolean).join(' - '), r.typeName, money(r.signedCents), money(r.balanceCents)]),
  });
  switch (doc.document_type_id) {
    case DocumentType.MonthlyStatement: {
      const from = `${doc.period_key}-01`;
      const to = lastDayOfMonth(doc.period_key);
      const p = await ledger.period(member.memberId, from, to);
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            { type: 'keyValue', rows: [...memberRows(member), { label: 'Statement period', value: `${monthName(doc.period_key)} (${from} to ${to})` }] },
            { type: 'keyValue', rows: [{ label: 'Opening balance', value: money(p.openingCents) }] },
            { type: 'heading', text: 'Transactions' },
            // english-only: PDF text (generated documents are English: the same bytes for the same data)
            p.rows.length > 0 ? rowsTable(p.rows) : { type: 'paragraph', text: 'No transactions this month.' },
            { type: 'keyValue', rows: [{ label: 'Closing balance', value: money(p.closingCents) }] },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        to,
      );
    }
    case DocumentType.Form1099: {
      const p = await ledger.period(member.memberId, `${doc.period_key}-01-01`, `${doc.period_key}-12-31`);
      const interest = p.rows.filter((r) => r.typeId === 3).reduce((n, r) => n + r.signedCents, 0);
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            // english-only: PDF text (generated documents are English: the same bytes for the same data)
            { type: 'paragraph', text: `Form 1099-INT: interest income for tax year ${doc.period_key}. A copy is furnished to the Internal Revenue Service.` },
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
            // english-only: PDF text (generated documents are English: the same bytes for the same data)
            p.rows.length > 0 ? rowsTable(p.rows) : { type: 'paragraph', text: 'No transactions this year.' },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        `${doc.period_key}-12-31`,
      );
    }
    default: {
      const permanent = doc.document_type_id === DocumentType.PermanentDepletion;
      const text = permanent
        ? // english-only: PDF text (generated documents are English: the same bytes for the same data)
          `Your set-aside account reached a zero balance on ${doc.period_key} and has no further funding scheduled. Medicare is now the primary payer for your injury-related care; please give this letter to your providers.`
        : // english-only: PDF text (generated documents are English: the same bytes for the same data)
          `Your set-aside account reached a zero balance on ${doc.period_key}. This depletion is temporary: the account will be funded again by your next scheduled deposit. Until then, Medicare may be billed for injury-related care; please give this letter to your providers.`;
      return deterministicPdf(
        services.pdf.render({
          ...base,
          blocks: [
            { type: 'keyValue', rows: [...memberRows(member), { label: 'Date of depletion', value: doc.period_key }] },
            { type: 'paragraph', text: `Dear ${member.firstName} ${member.lastName},` },
            { type: 'paragraph', text },
            { type: 'paragraph', text: contactsLine(brand) },
          ],
        }),
        doc.period_key,
      );
    }
  }
}
