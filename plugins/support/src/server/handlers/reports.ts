import { dayIn, type Message } from '@portal/core';
import { type PdfTableColumn, type RouteContext, route, type SheetColumn, type SheetRow, sendDownload, XLSX_MIME } from '@portal/server';
import { SUPPORT_ACCESS } from '../../access';
import { SupportApi } from '../../contract';
import { displayStatus } from '../../rules';
import { billingOf, mustBeMember, requirePermission } from './common';
import { searchOf } from './transactions';

const BATCH = 500;
/**
 * The day a moment (a charge, a registration, a termination) falls on where the reader is: the zone of the staff user's
 * browser (ctx.timeZone), as the grids show those moments; not the server's UTC day (a charge at 6:30 pm in Los Angeles
 * on 03/10 is already 03/11 in UTC).
 */
const dayOf = (ctx: Pick<RouteContext, 'timeZone'>, v: string | Date | null) => (v ? dayIn(ctx.timeZone, new Date(v)) : '');
/** Today where the reader is: the files' names and the PDF's Generated line. */
const stamp = (ctx: Pick<RouteContext, 'timeZone'>) => dayIn(ctx.timeZone);
/** A report reads through ctx.searchSql: the read replica when one is set and has the caller's own changes. */
type Ctx = Pick<RouteContext, 'searchSql' | 'reply' | 'brand' | 'services' | 'language' | 't' | 'timeZone'>;

interface RegistrationRow {
  member_id: number;
  member_number: string;
  first_name: string;
  last_name: string;
  email: string | null;
  brand: string;
  created_at: Date;
  user_name: string | null;
  is_active: boolean | null;
  registration_step: number | null;
  approved_date: Date | null;
  termination_date: Date | null;
}
interface UserRow {
  id: string;
  user_name: string;
  first_name: string;
  last_name: string;
  email: string | null;
  brand: string;
  member_id: number | null;
  is_active: boolean;
  /** Set for a login closed for good (a member terminated by support). */
  closed_at: Date | null;
  created_at: Date;
  roles: string[];
}

/** Rows of a keyset query, a batch at a time: the report streams while the query pages on. */
async function* batches<R, K>(fetch: (after: K | null) => Promise<R[]>, keyOf: (r: R) => K): AsyncGenerator<R[]> {
  let after: K | null = null;
  for (;;) {
    const rows = await fetch(after);
    if (!rows.length) return;
    yield rows;
    if (rows.length < BATCH) return;
    after = keyOf(rows[rows.length - 1] as R);
  }
}

const registrationRows = (ctx: Ctx) =>
  batches<RegistrationRow, number>(
    (after) =>
      ctx.searchSql.query<RegistrationRow>(
        `SELECT m.member_id, m.member_number, m.first_name, m.last_name, m.email, m.brand, m.created_at, m.approved_date, m.termination_date,
           u.user_name, u.is_active, u.registration_step
         FROM members m LEFT JOIN LATERAL (SELECT user_name, is_active, registration_step FROM users WHERE member_id = m.member_id ORDER BY created_at LIMIT 1) u ON true
         WHERE m.member_id > $1 ORDER BY m.member_id LIMIT $2`,
        [after ?? 0, BATCH],
      ),
    (r) => r.member_id,
  );
/** A member's registration state, an English word: the report writes it in the reader's language (ctx.t). */
const registrationStatus = (r: RegistrationRow) =>
  r.termination_date ? 'Terminated' : r.user_name === null ? 'No login' : !r.is_active || (r.registration_step ?? 10) < 10 ? 'Pending' : 'Registered';

const userRows = (ctx: Ctx) =>
  batches<UserRow, string>(
    (after) =>
      ctx.searchSql.query<UserRow>(
        `SELECT u.id, u.user_name, u.first_name, u.last_name, u.email, u.brand, u.member_id, u.is_active, u.closed_at, u.created_at,
           coalesce(array_agg(r.role ORDER BY r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
         FROM users u LEFT JOIN user_roles r ON r.user_id = u.id
         WHERE lower(u.user_name) > $1 GROUP BY u.id ORDER BY lower(u.user_name) LIMIT $2`,
        [after ?? '', BATCH],
      ),
    (r) => r.user_name.toLowerCase(),
  );

async function* flat<T, R>(source: AsyncGenerator<T[]>, map: (r: T) => R): AsyncGenerator<R[]> {
  for await (const rows of source) yield rows.map(map);
}
async function collect<T>(source: AsyncGenerator<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const rows of source) all.push(...rows);
  return all;
}

/**
 * A list report: a spreadsheet streamed as the query pages on, or a PDF with the count, the day and a table. Its words
 * (title, tab name, labels, headers) are messages the kernel writes in the reader's language; the rows' word values
 * (statuses, kinds, Yes/No) are translated by the row mappers with ctx.t.
 */
interface ListReport<R> {
  /** The file's name: ASCII and English in every language. */
  fileBase: string;
  title: Message;
  sheetName: Message;
  /** The label of the row count at the top of the PDF ('Members', 'Users'). */
  countLabel: Message;
  rows: () => AsyncGenerator<R[]>;
  excel: { columns: readonly SheetColumn[]; row: (r: R) => SheetRow };
  pdf: { columns: readonly PdfTableColumn[]; row: (r: R) => string[] };
}

async function sendListReport<R>(ctx: Ctx, format: 'excel' | 'pdf', report: ListReport<R>) {
  const base = `${report.fileBase}-${stamp(ctx)}`;
  if (format === 'excel') {
    return sendDownload(ctx.reply, {
      fileName: `${base}.xlsx`,
      contentType: XLSX_MIME,
      body: ctx.services.sheets.xlsx({
        sheetName: report.sheetName,
        language: ctx.language,
        columns: report.excel.columns,
        rows: flat(report.rows(), report.excel.row),
      }),
    });
  }
  const rows = await collect(report.rows());
  return sendDownload(ctx.reply, {
    fileName: `${base}.pdf`,
    contentType: 'application/pdf',
    body: ctx.services.pdf.render({
      title: report.title,
      language: ctx.language,
      brand: ctx.brand ?? undefined,
      blocks: [
        {
          type: 'keyValue',
          rows: [
            { label: report.countLabel, value: String(rows.length) },
            { label: 'Generated', value: stamp(ctx) },
          ],
        },
        { type: 'table', columns: report.pdf.columns, rows: rows.map(report.pdf.row) },
      ],
    }),
  });
}

/** A user's kind and Yes/No, English words the reports write in the reader's language. */
const userKind = (r: UserRow) => (r.member_id === null ? 'Staff' : 'Member');
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
/** A login's Active column: Closed for a login closed for good (it cannot sign in), else Yes or No. */
const loginActive = (r: UserRow) => (r.closed_at ? 'Closed' : yesNo(r.is_active));

export const reportRoutes = [
  route(SupportApi.registrationReport, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await requirePermission(ctx, SupportApi.registrationReport, 'ViewReports');
      await ctx.audit({ action: 'support.report.registration', entity: 'member', detail: { format: ctx.params.format } });
      return sendListReport(ctx, ctx.params.format, {
        fileBase: 'registration-report',
        title: 'Registration report',
        sheetName: 'Registrations',
        countLabel: 'Members',
        rows: () => registrationRows(ctx),
        excel: {
          columns: [
            { header: 'Member ID', key: 'id', format: 'number', width: 10 },
            { header: 'Member number', key: 'number', format: 'text', width: 14 },
            { header: 'First name', key: 'first', format: 'text', width: 16 },
            { header: 'Last name', key: 'last', format: 'text', width: 16 },
            { header: 'E-mail', key: 'email', format: 'text', width: 28 },
            { header: 'Brand', key: 'brand', format: 'text', width: 10 },
            { header: 'User name', key: 'user', format: 'text', width: 20 },
            { header: 'Status', key: 'status', format: 'text', width: 12 },
            { header: 'Created', key: 'created', format: 'date', width: 12 },
            { header: 'Terminated', key: 'terminated', format: 'date', width: 12 },
          ],
          row: (r) => ({
            id: r.member_id,
            number: r.member_number,
            first: r.first_name,
            last: r.last_name,
            email: r.email ?? '',
            brand: r.brand,
            user: r.user_name ?? '',
            status: ctx.t(registrationStatus(r)),
            created: dayOf(ctx, r.created_at),
            terminated: r.termination_date ? dayOf(ctx, r.termination_date) : null,
          }),
        },
        pdf: {
          columns: [
            { header: 'Member number', width: 1.2 },
            { header: 'Name', width: 1.8 },
            { header: 'E-mail', width: 2.2 },
            { header: 'Brand', width: 0.8 },
            { header: 'Status', width: 1 },
            { header: 'Created', width: 1 },
          ],
          row: (r) => [r.member_number, `${r.first_name} ${r.last_name}`, r.email ?? '', r.brand, ctx.t(registrationStatus(r)), dayOf(ctx, r.created_at)],
        },
      });
    },
  }),
  route(SupportApi.userReport, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await requirePermission(ctx, SupportApi.userReport, 'ViewReports');
      await ctx.audit({ action: 'support.report.users', entity: 'user', detail: { format: ctx.params.format } });
      return sendListReport(ctx, ctx.params.format, {
        fileBase: 'user-report',
        title: 'User report',
        sheetName: 'Users',
        countLabel: 'Users',
        rows: () => userRows(ctx),
        excel: {
          columns: [
            { header: 'User name', key: 'user', format: 'text', width: 22 },
            { header: 'First name', key: 'first', format: 'text', width: 16 },
            { header: 'Last name', key: 'last', format: 'text', width: 16 },
            { header: 'E-mail', key: 'email', format: 'text', width: 28 },
            { header: 'Brand', key: 'brand', format: 'text', width: 10 },
            { header: 'Kind', key: 'kind', format: 'text', width: 8 },
            { header: 'Roles', key: 'roles', format: 'text', width: 24 },
            { header: 'Active', key: 'active', format: 'text', width: 8 },
            { header: 'Created', key: 'created', format: 'date', width: 12 },
          ],
          row: (r) => ({
            user: r.user_name,
            first: r.first_name,
            last: r.last_name,
            email: r.email ?? '',
            brand: r.brand,
            kind: ctx.t(userKind(r)),
            roles: r.roles.join(', '),
            active: ctx.t(loginActive(r)),
            created: dayOf(ctx, r.created_at),
          }),
        },
        pdf: {
          columns: [
            { header: 'User name', width: 1.6 },
            { header: 'Name', width: 1.6 },
            { header: 'Brand', width: 0.8 },
            { header: 'Kind', width: 0.8 },
            { header: 'Roles', width: 1.8 },
            { header: 'Active', width: 0.6 },
          ],
          row: (r) => [r.user_name, `${r.first_name} ${r.last_name}`, r.brand, ctx.t(userKind(r)), r.roles.join(', '), ctx.t(loginActive(r))],
        },
      });
    },
  }),
  route(SupportApi.transactionExcel, {
    access: SUPPORT_ACCESS,
    handler: async (ctx) => {
      await requirePermission(ctx, SupportApi.transactionExcel, 'ExportData');
      const b = ctx.body;
      const billing = billingOf(ctx);
      const memberId = b.MemberID ?? null;
      // From a member's tab: that member's charges only, refused as the tab's own list refuses a non-member.
      if (memberId !== null) await mustBeMember(ctx, memberId);
      const only = b.TransactionIDs?.length ? [...new Set(b.TransactionIDs)] : null;
      await ctx.audit({
        action: 'support.report.transactions',
        entity: 'billing_transaction',
        ...(memberId === null ? {} : { memberId }),
        detail: { status: b.Query.Status, sort: `${b.SortColumn} ${b.SortOrder}`, selected: only?.length ?? null },
      });
      // The grid's filter, member and order (billing's sort keys and id tie-breaker, as the grid's page), read by billing
      // in keyset batches (no count, no OFFSET); the selected rows, when any, are narrowed to in SQL.
      const { offset: _offset, limit: _limit, ...search } = searchOf(ctx.t, { ...b, ...b.Query }, memberId);
      async function* rows() {
        for await (const batch of billing.transactionBatches({ ...search, ids: only, batchSize: BATCH }, ctx.searchSql)) {
          yield batch.map((t) => ({
            id: t.TransactionID,
            date: dayOf(ctx, t.DateCreated),
            member: `${t.Member.FirstName} ${t.Member.LastName}`,
            number: t.Member.MemberNumber,
            status: ctx.t(displayStatus(t.Status)),
            amount: Math.round(t.Amount * 100),
            pa: t.PANumber ?? '',
            provider: t.ProviderTransactionID === null ? '' : String(t.ProviderTransactionID),
            description: billing.inLanguage(t, (m) => ctx.t(m)).Description ?? '',
          }));
        }
      }
      return sendDownload(ctx.reply, {
        fileName: `support-transactions-${stamp(ctx)}.xlsx`,
        contentType: XLSX_MIME,
        body: ctx.services.sheets.xlsx({
          sheetName: 'Transactions',
          language: ctx.language,
          columns: [
            { header: 'Transaction ID', key: 'id', format: 'number', width: 14 },
            { header: 'Date', key: 'date', format: 'date', width: 12 },
            { header: 'Member', key: 'member', format: 'text', width: 24 },
            { header: 'Member number', key: 'number', format: 'text', width: 14 },
            { header: 'Status', key: 'status', format: 'text', width: 12 },
            { header: 'Amount', key: 'amount', format: 'money', width: 12 },
            { header: 'PA number', key: 'pa', format: 'text', width: 14 },
            { header: 'Provider transaction ID', key: 'provider', format: 'text', width: 16 },
            { header: 'Description', key: 'description', format: 'text', width: 30 },
          ],
          rows: rows(),
        }),
      });
    },
  }),
];
