import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { dayIn } from '@portal/core';
import { ledgerService } from '@portal/plugin-ledger/service';
import {
  badRequest,
  byteLimit,
  checkContentStream,
  type Message,
  msg,
  notFound,
  type RouteContext,
  route,
  sendDownload,
  uploadFileName,
  withMessage,
} from '@portal/server';
import { DOCUMENTS_ACCESS, DOCUMENTS_UPLOAD_ACCESS } from '../../access';
import { DocumentsApi, DocumentType, LISTED_DOCUMENT_TYPES, MAX_UPLOAD_BYTES, UploadMessages } from '../../contract';
import { materialize } from '../catalog';
import { freezeStatements, type StatementSnapshot } from '../freeze';
import { describe, form1099Interest, renderGenerated, type StoredDocument, TYPE_NAMES } from '../render';

export const NO_MEMBER_MESSAGE = 'Your account has no documents of its own. Choose a member to act for first.';
const NOT_FOUND = 'The document was not found.';

const SELECT = `SELECT document_id, member_id, document_type_id, period_key, to_char(effective_date, 'YYYY-MM-DD') AS effective_date, source, file_key, file_name FROM member_documents`;
/** Listed and downloadable: not a depletion letter withdrawn because the ledger no longer calls for it (catalog.ts). */
const CURRENT = 'withdrawn_at IS NULL';

type Ctx = Pick<RouteContext, 'memberId' | 'database' | 'use' | 'services' | 'brand' | 'reply' | 'auditRead' | 'language' | 't' | 'config'>;

export function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  return ctx.memberId;
}

/**
 * Brings the member's generated documents up to date with the ledger (see catalog.ts). A month or year is over by the
 * business's day (`config.businessTimeZone`), as the ledger, the dashboard and coupons count days: on Jan 31 at 7 pm
 * in Chicago January is not over, though it is Feb 1 in UTC. Letters withdrawn or listed again are audited as
 * 'system' (the ledger changed, not the reader). A monthly statement listed for the first time is then frozen
 * (freeze.ts): its figures are taken from the ledger once, and its PDF never changes after.
 */
export async function refresh(ctx: Ctx, memberId: number): Promise<void> {
  const ledger = ctx.use(ledgerService);
  await materialize(ctx.database.sql, ledger, memberId, dayIn(ctx.config.businessTimeZone), async (entries, tx) => {
    for (const entry of entries) await ctx.services.audit.write({ ...entry, actorName: 'system' }, tx);
  });
  await freezeStatements(ctx.database.sql, ledger, memberId, ctx.config.businessTimeZone);
}

/** An issued statement's figures: frozen now if it has none yet (issued before statements were frozen). */
async function statementSnapshot(ctx: Ctx, doc: StoredDocument): Promise<StatementSnapshot> {
  const read = async () =>
    (await ctx.database.sql.query<{ snapshot: StatementSnapshot | null }>('SELECT snapshot FROM member_documents WHERE document_id = $1', [doc.document_id]))[0]
      ?.snapshot ?? null;
  const stored = await read();
  if (stored) return stored;
  await freezeStatements(ctx.database.sql, ctx.use(ledgerService), doc.member_id, ctx.config.businessTimeZone);
  const frozen = await read();
  if (!frozen) throw new Error(`statement ${doc.document_id} has no snapshot after freezing`);
  return frozen;
}

/** One of the acting member's documents of the given types; anyone else's, or a missing one, is 404. */
export async function ownDocument(ctx: Ctx, memberId: number, id: number, types: readonly number[]): Promise<StoredDocument> {
  const row = (
    await ctx.database.sql.query<StoredDocument>(`${SELECT} WHERE document_id = $1 AND member_id = $2 AND document_type_id = ANY($3::int[]) AND ${CURRENT}`, [
      id,
      memberId,
      types,
    ])
  )[0];
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/**
 * Sends a document: an uploaded one from the file store, a generated one in the reader's language: a monthly statement
 * from its frozen figures, the others from the ledger.
 */
export async function sendDocument(ctx: Ctx, doc: StoredDocument) {
  if (doc.source === 'uploaded' && doc.file_key) {
    const stored = await ctx.services.files.get(doc.file_key);
    if (!stored) throw notFound(NOT_FOUND);
    return sendDownload(ctx.reply, { fileName: describe(doc).fileName, contentType: 'application/pdf', body: stored.body, size: stored.size });
  }
  const member = await ctx.services.members.load(doc.member_id);
  if (!member) throw notFound(NOT_FOUND);
  const snapshot = doc.document_type_id === DocumentType.MonthlyStatement ? await statementSnapshot(ctx, doc) : undefined;
  const form1099 = doc.document_type_id === DocumentType.Form1099 ? await furnish1099(ctx, doc) : undefined;
  const body = await renderGenerated({
    doc,
    snapshot,
    member,
    // The member's brand is the payer and signs the document wherever it is downloaded (the staff site too): the same
    // bytes for the same data in the same language.
    brand: ctx.services.brands.byId(member.brand) ?? ctx.brand,
    ledger: ctx.use(ledgerService),
    services: ctx.services,
    language: ctx.language,
    t: (m) => ctx.t(m),
    form1099,
  });
  return sendDownload(ctx.reply, { fileName: describe(doc).fileName, contentType: 'application/pdf', body, size: body.length });
}

/**
 * A 1099 as furnished now: Box 1 from the ledger, recorded as the figure furnished. Once a download's figure differs
 * from the one furnished before, the form is CORRECTED, on that download and every later one (one statement: the
 * right-hand sides read the row as it was, so two downloads at once cannot both miss the change).
 */
async function furnish1099(ctx: Ctx, doc: StoredDocument): Promise<{ interestCents: number; corrected: boolean }> {
  const interestCents = await form1099Interest(ctx.use(ledgerService), doc.member_id, doc.period_key);
  const rows = await ctx.database.sql.query<{ corrected: boolean }>(
    `UPDATE member_documents SET corrected = corrected OR (furnished_cents IS NOT NULL AND furnished_cents <> $2), furnished_cents = $2
     WHERE document_id = $1 RETURNING corrected`,
    [doc.document_id, interestCents],
  );
  return { interestCents, corrected: rows[0]?.corrected ?? false };
}

/** A list item, its kind and title in the reader's language (the file name stays English: stable). */
const toItem = (ctx: Pick<RouteContext, 'language' | 't'>, r: StoredDocument) => {
  const { title, fileName } = describe(r, ctx.language);
  return {
    DocumentId: r.document_id,
    DocumentTypeId: r.document_type_id,
    DocumentType: ctx.t(TYPE_NAMES[r.document_type_id] ?? String(r.document_type_id)),
    Title: ctx.t(title),
    EffectiveDate: r.effective_date,
    FileName: fileName,
  };
};

export const documentRoutes = [
  route(DocumentsApi.uploadDocument, {
    access: DOCUMENTS_UPLOAD_ACCESS,
    /*
     * The PDF streams into the file store under the member's key (at most 25 MB), is checked to be a PDF and scanned;
     * only then is it listed, with its audit row. A refused file is removed and the answer is a 400 naming why. The key
     * is made of ids (documents/<member>/<id>.pdf): the name staff's file had, made clean (uploadFileName), is kept in
     * file_name and is what the list shows and the download is saved under. Documents added before keep their keys
     * (file_key is per row).
     */
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const body = ctx.binary;
      if (!body) throw badRequest('Send the PDF as application/octet-stream.');
      const { services, query } = ctx;
      const fileName = uploadFileName(query.FileName);
      const id = randomUUID();
      const key = `documents/${memberId}/${id}.pdf`;
      const counted = { bytes: 0 };
      const limited = byteLimit(MAX_UPLOAD_BYTES, counted, UploadMessages.tooLarge);
      const piping = pipeline(body, limited);
      piping.catch(() => {});
      try {
        await services.files.put(key, limited, { contentType: 'application/pdf' });
        await piping;
      } catch (e) {
        body.destroy();
        await services.files.delete(key).catch(() => {});
        throw e;
      }
      const open = async () => {
        const stored = await services.files.get(key);
        if (!stored) throw new Error(`${key} vanished`);
        return stored.body;
      };
      const refuse = async (message: Message, reason: string) => {
        await ctx.audit({ action: 'documents.upload', outcome: 'refused', entity: 'member_document', memberId, detail: { fileName, reason } });
        return badRequest(message);
      };
      // From here the file is stored: whatever refuses or fails before its row is committed removes it (no file is
      // left behind unlisted).
      let row: StoredDocument;
      try {
        if (counted.bytes === 0) throw await refuse('The file is empty.', 'empty');
        const content = await checkContentStream(fileName, open);
        if (!content.ok) throw await refuse(content.message, 'content');
        const scan = await services.scanner.scan(await open(), fileName);
        if (!scan.clean)
          throw await refuse(
            msg("'{{name}}' was refused: the virus scanner found {{signature}}.", { name: fileName, signature: scan.signature }),
            `virus ${scan.signature}`,
          );
        row = await ctx.database.sql.transaction(async (tx) => {
          const inserted = await tx.query<StoredDocument>(
            `INSERT INTO member_documents (member_id, document_type_id, period_key, effective_date, source, file_key, file_name)
             VALUES ($1, $2, $3, $4::date, 'uploaded', $5, $6)
             RETURNING document_id, member_id, document_type_id, period_key, to_char(effective_date, 'YYYY-MM-DD') AS effective_date, source, file_key, file_name`,
            [memberId, query.DocumentTypeId, `upload-${id}`, query.EffectiveDate, key, fileName],
          );
          const made = inserted[0] as StoredDocument;
          await ctx.audit(
            {
              action: 'documents.upload',
              entity: 'member_document',
              entityId: made.document_id,
              memberId,
              detail: { fileName, bytes: counted.bytes, type: query.DocumentTypeId },
            },
            tx,
          );
          return made;
        });
      } catch (e) {
        await services.files.delete(key).catch(() => {});
        throw e;
      }
      return withMessage(toItem(ctx, row), UploadMessages.uploaded);
    },
  }),
  route(DocumentsApi.getMemberDocuments, {
    access: DOCUMENTS_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      if (ctx.body.MemberId != null && ctx.body.MemberId !== memberId) throw notFound('The member was not found.');
      await refresh(ctx, memberId);
      const asked = ctx.body.DocumentTypeIds.length > 0 ? ctx.body.DocumentTypeIds : LISTED_DOCUMENT_TYPES;
      const types = asked.filter((t) => LISTED_DOCUMENT_TYPES.includes(t));
      const rows = await ctx.database.sql.query<StoredDocument & { total: number }>(
        `${SELECT.replace(' FROM', ', count(*) OVER ()::int AS total FROM')} WHERE member_id = $1 AND document_type_id = ANY($2::int[]) AND ${CURRENT}
         ORDER BY effective_date DESC, document_type_id, document_id DESC LIMIT $3 OFFSET $4`,
        [memberId, types, ctx.body.PageSize, (ctx.body.PageNumber - 1) * ctx.body.PageSize],
      );
      let total = rows[0]?.total;
      if (total === undefined) {
        total =
          (
            await ctx.database.sql.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM member_documents WHERE member_id = $1 AND document_type_id = ANY($2::int[]) AND ${CURRENT}`,
              [memberId, types],
            )
          )[0]?.n ?? 0;
      }
      ctx.auditRead({ action: 'documents.list', entity: 'member_document', memberId, detail: { ids: rows.map((r) => r.document_id) } });
      return {
        TotalRows: total,
        Items: rows.map((r) => toItem(ctx, r)),
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
