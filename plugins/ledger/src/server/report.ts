import { formatCents, formatIsoDayText, localeOf, msg } from '@portal/core';
import { type RouteContext, sendDownload, XLSX_MIME } from '@portal/server';
import { DefaultRange, type LedgerSearch, type REPORT_FORMATS } from '../contract';
import { businessToday, headerOf, loadAccount, memberOf, rangeOf, reportRows, typeName } from './repo';

type Ctx = Pick<RouteContext, 'user' | 'memberId' | 'searchSql' | 'services' | 'reply' | 'brand' | 'auditRead' | 'language' | 't' | 'config'>;

/**
 * The period's ledger as a PDF (header, totals and every row) or a spreadsheet, streamed through the kernel services,
 * in the reader's language: the kernel writes the labels and headers, the type names and amounts are worded here.
 * It reads through ctx.searchSql: the read replica when one is set and has the caller's own changes.
 */
export async function sendReport(ctx: Ctx, body: LedgerSearch & { Format: (typeof REPORT_FORMATS)[number] }) {
  const memberId = memberOf(ctx);
  const { From, To } = rangeOf(body.Query, DefaultRange.ledger, businessToday(ctx));
  const [rows, stored, member] = await Promise.all([
    reportRows(ctx.searchSql, memberId, From, To, ctx.config.businessTimeZone),
    loadAccount(ctx.searchSql, memberId),
    ctx.services.members.load(memberId),
  ]);
  // The header the page holds (the query's), else the account's: a check or a download saves none of it, the send does.
  const account = headerOf(stored, body.Query);
  ctx.auditRead({ action: 'ledger.report.download', entity: 'ledger_transaction', memberId, detail: { From, To, rows: rows.length, format: body.Format } });
  const base = `ledger-report-${From}-to-${To}`;
  const { language } = ctx;
  const type = (id: number) => ctx.t(typeName(id));
  const money = (cents: number) => formatCents(cents, localeOf(language));
  // A day in the report's prose as the reader's language writes one; the rows' dates stay 'YYYY-MM-DD' (a column).
  const day = (iso: string | null | undefined) => formatIsoDayText(iso, 'medium', localeOf(language));
  if (body.Format === 'xlsx') {
    return sendDownload(ctx.reply, {
      fileName: `${base}.xlsx`,
      contentType: XLSX_MIME,
      body: ctx.services.sheets.xlsx({
        sheetName: 'Ledger',
        language,
        columns: [
          { header: 'Date', key: 'date', format: 'date', width: 12 },
          { header: 'Code', key: 'code', format: 'text', width: 12 },
          { header: 'Company', key: 'company', format: 'text', width: 28 },
          { header: 'Description', key: 'description', format: 'text', width: 36 },
          { header: 'Type', key: 'type', format: 'text', width: 10 },
          { header: 'Amount', key: 'amount', format: 'money', width: 14 },
          { header: 'Balance', key: 'balance', format: 'money', width: 14 },
        ],
        rows: rows.map((r) => ({
          date: r.DateCreated,
          code: r.Code ?? '',
          company: r.Company ?? '',
          description: r.Description ?? '',
          type: type(r.TransactionTypeID),
          amount: Math.round(r.Amount * 100),
          balance: r.Balance === null ? null : Math.round(r.Balance * 100),
        })),
      }),
    });
  }
  const cents = (type: number) => rows.filter((r) => r.TransactionTypeID === type).reduce((n, r) => n + Math.round(r.Amount * 100), 0);
  return sendDownload(ctx.reply, {
    fileName: `${base}.pdf`,
    contentType: 'application/pdf',
    body: ctx.services.pdf.render({
      title: 'Medicare set-aside ledger report',
      language,
      // The member's brand heads and signs it, also when staff download it on the staff site.
      brand: (member && ctx.services.brands.byId(member.brand)) ?? ctx.brand ?? undefined,
      blocks: [
        {
          type: 'keyValue',
          rows: [
            { label: 'Member', value: member ? `${member.firstName} ${member.lastName} (${member.memberNumber})` : String(memberId) },
            { label: 'HICN', value: account.hicn ?? '' },
            { label: 'Date of injury', value: day(account.date_of_injury) },
            { label: 'Date of settlement', value: day(account.date_of_settlement) },
            { label: 'Period', value: ctx.t(msg('{{from}} to {{to}}', { from: day(From), to: day(To) })) },
            { label: 'Expenses', value: money(cents(1)) },
            { label: 'Deposits', value: money(cents(2)) },
            { label: 'Interest', value: money(cents(3)) },
          ],
        },
        {
          type: 'table',
          columns: [
            { header: 'Date', width: 1.1 },
            { header: 'Code', width: 0.9 },
            { header: 'Company', width: 1.8 },
            { header: 'Description', width: 2.2 },
            { header: 'Type', width: 0.9 },
            // Money right-aligned, as statements have it: amounts of different widths line up on the cents.
            { header: 'Amount', width: 1, align: 'right' as const },
            { header: 'Balance', width: 1.1, align: 'right' as const },
          ],
          rows: rows.map((r) => [
            r.DateCreated,
            r.Code ?? '',
            r.Company ?? '',
            r.Description ?? '',
            type(r.TransactionTypeID),
            money(Math.round(r.Amount * 100)),
            r.Balance === null ? '' : money(Math.round(r.Balance * 100)),
          ]),
        },
      ],
    }),
  });
}
