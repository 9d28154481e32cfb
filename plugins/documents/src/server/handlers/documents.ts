import { ledgerService } from '@portal/plugin-ledger/service';
import { badRequest, notFound, type RouteContext, route, sendDownload } from '@portal/server';
import { DOCUMENTS_ACCESS } from '../../access';
import { DocumentsApi, LISTED_DOCUMENT_TYPES } from '../../contract';
import { materialize } from '../catalog';
import { describe, renderGenerated, type StoredDocument, TYPE_NAMES } from '../render';

export const NO_MEMBER_MESSAGE = 'Your account has no documents of its own. Choose a member to act for first.';
const NOT_FOUND = 'The document was not found.';

const todayUtc = () => new Date().toISOString().slice(0, 10);
const SELECT = `SELECT document_id, member_id, document_type_id, period_key, to_char(effective_date, 'YYYY-MM-DD') AS effective_date FROM member_documents`;

type Ctx = Pick<RouteContext, 'memberId' | 'database' | 'use' | 'services' | 'brand' | 'reply' | 'auditRead'>;

export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  return ctx.memberId;
}

/** Brings the member's generated documents up to date with the ledger (see catalog.ts). */
export async function refresh(ctx: Ctx, memberId: number): Promise<void> {
  await materialize(ctx.database.sql, ctx.use(ledgerService), memberId, todayUtc());
}

/** One of the acting member's documents of the given types; anyone else's, or a missing one, is 404. */
export async function ownDocument(ctx: Ctx, memberId: number, id: number, types: readonly number[]): Promise<StoredDocument> {
  const row = (
    await ctx.database.sql.query<StoredDocument>(`${SELECT} WHERE document_id = $1 AND member_id = $2 AND document_type_id = ANY($3::int[])`, [
      id,
      memberId,
      types,
    ])
  )[0];
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** Renders a generated document and sends it. */
export async function sendDocument(ctx: Ctx, doc: StoredDocument) {
  const member = await ctx.services.members.load(doc.member_id);
  if (!member) throw notFound(NOT_FOUND);
  const body = await renderGenerated({ doc, member, brand: ctx.brand, ledger: ctx.use(ledgerService), services: ctx.services });
  return sendDownload(ctx.reply, { fileName: describe(doc).fileName, contentType: 'application/pdf', body, size: body.length });
}

export const documentRoutes = [
  route(DocumentsApi.getMemberDocuments, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      if (ctx.body.MemberId != null && ctx.body.MemberId !== memberId) throw notFound('The member was not found.');
      await refresh(ctx, memberId);
      const asked = ctx.body.DocumentTypeIds.length > 0 ? ctx.body.DocumentTypeIds : LISTED_DOCUMENT_TYPES;
      const types = asked.filter((t) => LISTED_DOCUMENT_TYPES.includes(t));
      const rows = await ctx.database.sql.query<StoredDocument & { total: number }>(
        `${SELECT.replace(' FROM', ', count(*) OVER ()::int AS total FROM')} WHERE member_id = $1 AND document_type_id = ANY($2::int[])
         ORDER BY effective_date DESC, document_type_id, document_id DESC LIMIT $3 OFFSET $4`,
        [memberId, types, ctx.body.PageSize, (ctx.body.PageNumber - 1) * ctx.body.PageSize],
      );
      let total = rows[0]?.total;
      if (total === undefined) {
        total =
          (
            await ctx.database.sql.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM member_documents WHERE member_id = $1 AND document_type_id = ANY($2::int[])',
              [memberId, types],
            )
          )[0]?.n ?? 0;
      }
      ctx.auditRead({ action: 'documents.list', entity: 'member_document', memberId, detail: { ids: rows.map((r) => r.document_id) } });
      return {
        TotalRows: total,
        Items: rows.map((r) => ({
          DocumentId: r.document_id,
          DocumentTypeId: r.document_type_id,
          DocumentType: TYPE_NAMES[r.document_type_id] ?? String(r.document_type_id),
          Title: describe(r).title,
          EffectiveDate: r.effective_date,
          FileName: describe(r).fileName,
        })),
      };
    },
  }),
  route(DocumentsApi.downloadDocument, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const doc = await ownDocument(ctx, memberId, ctx.body.DocumentId, LISTED_DOCUMENT_TYPES);
      ctx.auditRead({ action: 'documents.download', entity: 'member_document', entityId: doc.document_id, memberId });
      return sendDocument(ctx, doc);
    },
  }),
];
