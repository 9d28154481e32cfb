import { route } from '@portal/server';
import { DOCUMENTS_ACCESS } from '../../access';
import { DocumentsApi, DocumentType } from '../../contract';
import { memberOf, ownDocument, refresh, sendDocument } from './documents';

const STATEMENT = DocumentType.MonthlyStatement;

/** The statement calls (spec 02 section 7): the acting member's monthly statements, generated from the ledger. */
export const statementRoutes = [
  route(DocumentsApi.effectiveYears, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      await refresh(ctx, memberId);
      const rows = await ctx.database.sql.query<{ year: number }>(
        `SELECT DISTINCT substr(period_key, 1, 4)::int AS year FROM member_documents WHERE member_id = $1 AND document_type_id = $2 ORDER BY year DESC`,
        [memberId, STATEMENT],
      );
      ctx.auditRead({ action: 'statements.years', entity: 'member_document', memberId });
      return rows.map((r) => r.year);
    },
  }),
  route(DocumentsApi.monthlyStatements, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      await refresh(ctx, memberId);
      const rows = await ctx.database.sql.query<{ document_id: number; period_key: string }>(
        `SELECT document_id, period_key FROM member_documents WHERE member_id = $1 AND document_type_id = $2 AND period_key LIKE $3 ORDER BY period_key`,
        [memberId, STATEMENT, `${ctx.query.selectedYear}-%`],
      );
      ctx.auditRead({ action: 'statements.list', entity: 'member_document', memberId, detail: { year: ctx.query.selectedYear } });
      return rows.map((r) => ({ DocumentId: r.document_id, EffectiveMonth: r.period_key }));
    },
  }),
  route(DocumentsApi.statementSearch, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      await refresh(ctx, memberId);
      const year = ctx.body.Year ?? null;
      // The member's statements of the year (any year when none is given): the page's and its count's filter.
      const where = "WHERE member_id = $1 AND document_type_id = $2 AND ($3::text IS NULL OR period_key LIKE $3 || '-%')";
      const filter = [memberId, STATEMENT, year === null ? null : String(year)];
      const rows = await ctx.database.sql.query<{ document_id: number; period_key: string; total: number }>(
        `SELECT document_id, period_key, count(*) OVER ()::int AS total FROM member_documents ${where}
         ORDER BY period_key DESC LIMIT $4 OFFSET $5`,
        [...filter, ctx.body.PageSize, (ctx.body.PageNumber - 1) * ctx.body.PageSize],
      );
      // A page past the last has no row to carry the count: counted on its own, as the documents search does.
      const total =
        rows[0]?.total ?? (await ctx.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM member_documents ${where}`, filter))[0]?.n ?? 0;
      ctx.auditRead({ action: 'statements.search', entity: 'member_document', memberId, detail: { year } });
      return { TotalRows: total, Items: rows.map((r) => ({ DocumentId: r.document_id, EffectiveMonth: r.period_key })) };
    },
  }),
  route(DocumentsApi.downloadStatement, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const doc = await ownDocument(ctx, memberId, ctx.query.documentId, [STATEMENT]);
      ctx.auditRead({ action: 'statements.download', entity: 'member_document', entityId: doc.document_id, memberId });
      return sendDocument(ctx, doc);
    },
  }),
];
