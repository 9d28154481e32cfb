import { createHash, type Hash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { dayIn, formatCents, formatIsoDayText, localeOf } from '@portal/core';
import { type BillStatus, claimsService } from '@portal/plugin-claims/service';
import { statusName } from '@portal/plugin-claims/statusFlow';
import {
  ApiError,
  badRequest,
  checkContentStream,
  type Message,
  msg,
  notFound,
  pruneKeyTable,
  type RouteContext,
  route,
  type SqlClient,
  sendDownload,
  uploadFileName,
  withMessage,
} from '@portal/server';
import { REIMBURSEMENT_ACCESS } from '../../access';
import { type CreateBody, type DuplicateRequest, type Reimbursement, ReimbursementApi } from '../../contract';
import { checkDateAndAmount, checkFiles, extensionOf, ReimbursementMessages as M, MAX_FILES, sanitizeFileName } from '../../rules';
import { dropChunks, dropUpload, dropUsedUpload, loadUpload, openUpload, receiveChunk, statusOf, type UploadRow, uploadIsWhole } from '../uploads';

export const NO_MEMBER_MESSAGE = 'Your account has no reimbursements of its own. Choose a member to act for first.';
/** A request's BatchId is chosen by the client: one that already holds another member's files is refused (409). */
export const BATCH_TAKEN_MESSAGE = 'This request belongs to another member. Start a new reimbursement request.';
/**
 * The files of a request share its service date and amount (its bill's): a file sent again under the request's BatchId
 * (a retry of the files that were not sent) joins that bill, and one with another date or amount is refused (409).
 */
export const BATCH_CHANGED_MESSAGE = 'This request was sent with another service date or amount. Start a new reimbursement request.';
/**
 * An IdempotencyKey stands for one create: the key sent again with another file, request, service date or amount is
 * refused (409: the body is valid, it conflicts with what the key already made), and nothing is stored.
 */
export const KEY_REUSED_MESSAGE = 'This IdempotencyKey was already used for another file or request. Nothing was saved; send it with a new key.';
/**
 * The first file of a new request (a BatchId with none of the member's files yet) with the service date and amount of a
 * request the member already sent, or with the same bytes as a file they sent, is refused (409) with one of these,
 * naming the earlier request, and a DuplicateRequest in its Data; nothing is stored and the upload is kept, so the page
 * can ask "Send anyway?" and send the same create with AllowDuplicate true.
 */
export const DUPLICATE_REQUEST_MESSAGE =
  'You already sent a reimbursement request for {{amount}} with service date {{serviceDate}} on {{sentOn}} (bill {{claim}}). This one was not sent.';
export const DUPLICATE_FILE_MESSAGE =
  'You already sent this file with a reimbursement request for {{amount}} with service date {{serviceDate}} on {{sentOn}} (bill {{claim}}). This one was not sent.';

/**
 * The name a file is kept and shown under: the sender's, made clean (the kernel's uploadFileName: no control
 * characters, at most 200 characters, '.pdf' is 'file.pdf'), then as the spec keeps it (sanitizeFileName). It never
 * goes into a file key.
 */
const keptName = (name: string) => sanitizeFileName(uploadFileName(name));

function memberOf(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  return ctx.memberId;
}

/**
 * A new request (each of its files) for a service after the member's membership ended is refused (409), whoever asks
 * (the member or staff acting for them); a service up to and on the termination day (the business's calendar day of
 * the termination) may still be reimbursed. A create repeated for a request already made still answers it.
 *
 * Create checks twice: before the upload's bytes are read (`tx` absent: a refusal costs no scan and keeps the upload),
 * and again in the transaction that makes the bill and the row (`tx`), where the member's row is read FOR SHARE, so a
 * termination committing between the first check and the insert either waits for the insert or is seen by it.
 */
async function refuseAfterTermination(ctx: Pick<RouteContext, 'services' | 'config' | 'language'>, memberId: number, serviceDate: string, tx?: SqlClient) {
  if (!serviceDate) return;
  const ended = await ctx.services.members.terminationDay(memberId, ctx.config.businessTimeZone, tx, tx ? { share: true } : undefined);
  if (ended === null) return;
  // The day in the reader's language ('Mar 10, 2026', '10 mar 2026'), as the duplicate-request message writes its dates.
  if (serviceDate > ended) throw new ApiError(409, msg(TERMINATED_MESSAGE, { date: formatIsoDayText(ended, 'medium', localeOf(ctx.language)) }));
}
const TERMINATED_MESSAGE = 'The membership ended on {{date}}: a reimbursement for a service after that day cannot be requested.';

/** The member's date: a service date is in the future only once it is tomorrow everywhere (UTC+14). */
const latestToday = () => new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);

interface Row {
  id: number;
  service_date: string | Date;
  amount_cents: string | number;
  name: string;
  extension: string;
  declared_type: string;
  size: string | number;
  created_at: string | Date;
  file_key: string;
  content_type: string;
  claim_number: string | null;
  claim_id: number | null;
  upload_id: string;
  batch_id: string;
}
const isoDay = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));
/** A row as the list and create answer it, with its bill's status and payment (from the claims plugin) when known. */
const toWire = (r: Row, bill?: BillStatus): Reimbursement => ({
  Id: r.id,
  ServiceDate: isoDay(r.service_date),
  Amount: Number(r.amount_cents) / 100,
  Name: r.name,
  Extension: r.extension,
  type: r.declared_type,
  Size: Number(r.size),
  CreatedAt: new Date(r.created_at).toISOString(),
  ClaimNumber: r.claim_number,
  BatchId: r.batch_id,
  ClaimStatusID: bill?.ClaimStatusID ?? null,
  ClaimStatus: bill ? statusName(bill.ClaimStatusID) : null,
  PaidAmount: bill?.PaidCents == null ? null : bill.PaidCents / 100,
  PaidDate: bill?.PaidDate ?? null,
});
const COLUMNS =
  'id, service_date::text AS service_date, amount_cents, name, extension, declared_type, size, created_at, file_key, content_type, claim_number, claim_id, upload_id::text AS upload_id, batch_id::text AS batch_id';

/** The bills of the rows (the member's own, read-only through the claims plugin) by ClaimID. */
async function billsOf(ctx: Pick<RouteContext, 'use'>, memberId: number, rows: readonly Row[]): Promise<Map<number, BillStatus>> {
  const ids = [...new Set(rows.flatMap((r) => (r.claim_id === null ? [] : [r.claim_id])))];
  const bills = await ctx.use(claimsService).billStatuses(memberId, ids);
  return new Map(bills.map((b) => [b.ClaimID, b]));
}
const wireOf = (r: Row, bills: ReadonlyMap<number, BillStatus>) => toWire(r, r.claim_id === null ? undefined : bills.get(r.claim_id));

interface Earlier {
  id: number;
  service_date: string;
  amount_cents: string | number;
  created_at: string | Date;
  claim_number: string | null;
  same_request: boolean;
}

/**
 * The member's latest earlier request the first file of a new request looks like: the same service date and amount
 * (first), or the same bytes (`sha256`, once the file is copied; null before). Other members' files never count.
 */
export async function findDuplicate(
  sql: SqlClient,
  memberId: number,
  batchId: string,
  serviceDate: string,
  amountCents: number,
  sha256: string | null,
): Promise<Earlier | undefined> {
  const rows = await sql.query<Earlier>(
    `SELECT id, service_date::text AS service_date, amount_cents, created_at, claim_number,
       (service_date = $3::date AND amount_cents = $4) AS same_request
     FROM reimbursements
     WHERE member_id = $1 AND batch_id <> $2::uuid
       AND ((service_date = $3::date AND amount_cents = $4) OR ($5::text IS NOT NULL AND content_sha256 = $5::text))
     ORDER BY 6 DESC, created_at DESC, id DESC LIMIT 1`,
    [memberId, batchId, serviceDate, amountCents, sha256],
  );
  return rows[0];
}

/** The 409 of a request that looks like an earlier one: the message names it (in the reader's language), the Data holds it. */
function duplicateError(ctx: Pick<RouteContext, 'language' | 'timeZone'>, earlier: Earlier): ApiError {
  const locale = localeOf(ctx.language);
  const cents = Number(earlier.amount_cents);
  const createdAt = new Date(earlier.created_at);
  const data: DuplicateRequest = {
    Duplicate: true,
    Reason: earlier.same_request ? 'dateAndAmount' : 'sameFile',
    Earlier: {
      Id: earlier.id,
      ClaimNumber: earlier.claim_number,
      ServiceDate: isoDay(earlier.service_date),
      Amount: cents / 100,
      CreatedAt: createdAt.toISOString(),
    },
  };
  const values = {
    amount: formatCents(cents, locale),
    serviceDate: formatIsoDayText(isoDay(earlier.service_date), 'medium', locale),
    sentOn: formatIsoDayText(dayIn(ctx.timeZone, createdAt), 'medium', locale),
    claim: earlier.claim_number ?? String(earlier.id),
  };
  return new ApiError(409, msg(earlier.same_request ? DUPLICATE_REQUEST_MESSAGE : DUPLICATE_FILE_MESSAGE, values), data);
}

/** The bytes of `source` as they pass, fed into `hash` (the kept copy's SHA-256, at no extra read). */
function hashing(source: Readable, hash: Hash): Readable {
  async function* pass() {
    for await (const chunk of source) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
  }
  return Readable.from(pass(), { objectMode: false });
}

/**
 * What an IdempotencyKey stands for: the create's body as the contract parsed it (so 42.5 and '42.50' are the same),
 * without its UploadId, which a retry after a lost answer changes (the file is uploaded again, the first upload having
 * been used up). The same key with another fingerprint is another create, refused.
 */
export function createFingerprint(body: CreateBody): string {
  const r = body.reimbursement;
  const cents = r.Amount === '' ? '' : Math.round(r.Amount * 100);
  const fields = [body.BatchId.toLowerCase(), body.type, body.name, body.ext, r.type, r.FileName, r.Extension, r.ServiceDate, cents];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

export const CREATE_KEY_PRUNE_JOB = 'reimbursement.prune-create-keys';
/** Once a day, at a quiet hour (UTC), with the kernel's own create keys. */
export const CREATE_KEY_PRUNE_CRON = '17 3 * * *';

/**
 * Deletes creates' IdempotencyKeys older than the kernel's window for its own, in the daily
 * `reimbursement.prune-create-keys` job. The reimbursement a key made stays; only the key goes.
 */
export const pruneCreateKeys = (sql: SqlClient, retentionDays?: number) => pruneKeyTable(sql, 'reimbursement_create_keys', retentionDays);

/** The member's files in a request (batch): the 10-file limit counts only them. */
async function countBatch(sql: SqlClient, batchId: string, memberId: number): Promise<number> {
  return (
    (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM reimbursements WHERE batch_id = $1 AND member_id = $2', [batchId, memberId]))[0]?.n ?? 0
  );
}

/** What create answers besides the reimbursement: the request is submitted, with the number of its files so far. */
export function createdMessage(files: number): Message {
  return files === 1 ? M.created : msg(M.createdFiles, { count: files });
}

/** The member's files in the request (batch) a reimbursement belongs to, itself included. */
async function filesOfRequest(sql: SqlClient, id: number, memberId: number): Promise<number> {
  return (
    (
      await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM reimbursements WHERE member_id = $2 AND batch_id = (SELECT batch_id FROM reimbursements WHERE id = $1)',
        [id, memberId],
      )
    )[0]?.n ?? 1
  );
}

/** A request is one member's: a BatchId that already holds another member's files is refused (409), nothing changes. */
async function mustOwnBatch(sql: SqlClient, batchId: string, memberId: number): Promise<void> {
  const taken = await sql.query('SELECT 1 FROM reimbursements WHERE batch_id = $1 AND member_id <> $2 LIMIT 1', [batchId, memberId]);
  if (taken.length > 0) throw new ApiError(409, BATCH_TAKEN_MESSAGE);
}

/** A file joining a request the member already sent files of has the request's service date and amount (409 otherwise). */
async function mustMatchBatch(sql: SqlClient, batchId: string, memberId: number, serviceDate: string, amountCents: number): Promise<void> {
  const other = await sql.query(
    'SELECT 1 FROM reimbursements WHERE batch_id = $1 AND member_id = $2 AND (service_date <> $3::date OR amount_cents <> $4) LIMIT 1',
    [batchId, memberId, serviceDate, amountCents],
  );
  if (other.length > 0) throw new ApiError(409, BATCH_CHANGED_MESSAGE);
}

export const reimbursementRoutes = [
  route(ReimbursementApi.uploadStart, {
    access: REIMBURSEMENT_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const problem = checkFiles([{ name: uploadFileName(ctx.body.FileName), size: ctx.body.Size }]);
      if (problem) throw badRequest(problem);
      // The upload's row and its audit row are one transaction.
      const row = await ctx.database.sql.transaction(async (tx) => {
        const rows = await tx.query<UploadRow>(
          'INSERT INTO reimbursement_uploads (id, member_id, user_id, file_name, size) VALUES ($1, $2, $3, $4, $5) RETURNING *',
          [randomUUID(), memberId, ctx.user?.id ?? '', keptName(ctx.body.FileName), ctx.body.Size],
        );
        const made = rows[0] as UploadRow;
        await ctx.audit(
          {
            action: 'reimbursement.upload.start',
            entity: 'reimbursement_upload',
            entityId: made.id,
            memberId,
            detail: { name: made.file_name, size: Number(made.size) },
          },
          tx,
        );
        return made;
      });
      return statusOf(row);
    },
  }),
  route(ReimbursementApi.uploadStatus, {
    access: REIMBURSEMENT_ACCESS,
    handler: async (ctx) => statusOf(await loadUpload(ctx.database.sql, ctx.params.id, memberOf(ctx))),
  }),
  route(ReimbursementApi.uploadChunk, {
    access: REIMBURSEMENT_ACCESS,
    handler: async (ctx) => {
      const row = await loadUpload(ctx.database.sql, ctx.params.id, memberOf(ctx));
      if (!ctx.binary) throw badRequest('Send the chunk as application/octet-stream.');
      return receiveChunk(ctx, row, ctx.query.Offset, ctx.binary, memberOf(ctx));
    },
  }),
  route(ReimbursementApi.uploadCancel, {
    access: REIMBURSEMENT_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const row = await loadUpload(ctx.database.sql, ctx.params.id, memberId);
      // The row goes with its audit row (one transaction); its chunks go after, as a step that cannot fail the cancel
      // (it is done): chunks a failing file store kept are dropped by the daily prune, which also looks for chunks that
      // no row names.
      await ctx.database.sql.transaction(async (tx) => {
        await tx.query('DELETE FROM reimbursement_uploads WHERE id = $1', [row.id]);
        await ctx.audit(
          {
            action: 'reimbursement.upload.cancel',
            entity: 'reimbursement_upload',
            entityId: row.id,
            memberId,
            detail: { name: row.file_name, size: Number(row.size), received: Number(row.received) },
          },
          tx,
        );
      });
      await dropChunks(ctx.services.files, row.id).catch((e: unknown) => {
        ctx.req.log.warn({ uploadId: row.id, reason: e instanceof Error ? e.message : String(e) }, 'cancelled upload: chunks left for the daily prune');
      });
      return { UploadId: row.id };
    },
  }),
  route(ReimbursementApi.create, {
    access: REIMBURSEMENT_ACCESS,
    /*
     * One file of a request: the rules first (400 with the spec's message, nothing changes), then the finished upload's
     * bytes are checked against the extension and scanned, and only then kept, recorded and audited. Creating with an
     * upload already used answers the reimbursement it made (a retried request keeps one), also when the retry runs at
     * the same time as the first: each attempt keeps the bytes under its own key, the insert re-checks the upload under
     * its lock, and an attempt that finds the upload made by another removes only its own copy. With an IdempotencyKey
     * (the page's, one per file of a request) a create repeated with the key answers the reimbursement the key made and
     * stores nothing, also when it names another upload (the file sent again after the answer was lost; that upload is
     * dropped) or runs at the same time as the first; the key with another body is refused (409).
     */
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const { body, database, services } = ctx;
      const sql = database.sql;
      const made = async (client: SqlClient = sql) =>
        (await client.query<Row>(`SELECT ${COLUMNS} FROM reimbursements WHERE upload_id = $1 AND member_id = $2`, [body.UploadId, memberId]))[0];
      // Every answer of a made reimbursement (a retry's too) says the request is submitted, with its files so far.
      const answer = async (row: Row) =>
        withMessage(wireOf(row, await billsOf(ctx, memberId, [row])), createdMessage(await filesOfRequest(sql, row.id, memberId)));
      const idempotencyKey = body.IdempotencyKey ?? null;
      const fingerprint = idempotencyKey === null ? null : createFingerprint(body);
      /** The reimbursement the member's IdempotencyKey made (undefined before it made one); the key with another body is a 409. */
      const replayOf = async (client: SqlClient = sql): Promise<Row | undefined> => {
        if (idempotencyKey === null) return undefined;
        const claimed = (
          await client.query<{ fingerprint: string; reimbursement_id: number | null }>(
            'SELECT fingerprint, reimbursement_id FROM reimbursement_create_keys WHERE member_id = $1 AND idempotency_key = $2',
            [memberId, idempotencyKey],
          )
        )[0];
        if (!claimed) return undefined;
        if (claimed.fingerprint !== fingerprint) throw new ApiError(409, KEY_REUSED_MESSAGE);
        if (claimed.reimbursement_id === null) return undefined;
        return (await client.query<Row>(`SELECT ${COLUMNS} FROM reimbursements WHERE id = $1 AND member_id = $2`, [claimed.reimbursement_id, memberId]))[0];
      };
      /**
       * A repeat of a create the key made answers that reimbursement and stores nothing: an upload the repeat brought
       * (the file sent again after the answer was lost) is dropped, not kept for a day.
       */
      const replay = async (row: Row) => {
        if (row.upload_id !== body.UploadId) {
          const spare = await loadUpload(sql, body.UploadId, memberId).catch(() => null);
          if (spare) await dropUpload(ctx, spare.id);
        }
        return answer(row);
      };
      const first = await replayOf();
      if (first) return replay(first);
      const done = await made();
      if (done) return answer(done);
      // The key this attempt stored the bytes under, once it has.
      const own: { key: string | null } = { key: null };
      let kept: { row: Row; fresh: boolean };
      try {
        kept = await keep();
      } catch (e) {
        if (own.key) await services.files.delete(own.key).catch(() => {});
        // A request of the same key or upload that ran at once made the reimbursement (and dropped the upload's chunks
        // this one was reading, or won the insert): the answer is the one it made. The key with another body stays a 409.
        const sameKey = await replayOf().catch((again) => {
          if (again instanceof ApiError) throw again;
          return undefined;
        });
        if (sameKey) return replay(sameKey);
        const other = await made().catch(() => undefined);
        if (other) return answer(other);
        throw e;
      }
      if (!kept.fresh) {
        if (own.key) await services.files.delete(own.key).catch(() => {});
        return replay(kept.row);
      }
      await dropUsedUpload(ctx, body.UploadId);
      return answer(kept.row);

      async function keep(): Promise<{ row: Row; fresh: boolean }> {
        const r = body.reimbursement;
        const rule = checkDateAndAmount(r.ServiceDate, r.Amount === '' ? '' : r.Amount, latestToday());
        if (rule) throw badRequest(rule);
        await refuseAfterTermination(ctx, memberId, r.ServiceDate);
        if (extensionOf(uploadFileName(body.name)) !== body.ext || extensionOf(uploadFileName(r.FileName)) !== r.Extension) throw badRequest(M.extension);
        const amountCents = Math.round(Number(r.Amount) * 100);
        await mustOwnBatch(sql, body.BatchId, memberId);
        await mustMatchBatch(sql, body.BatchId, memberId, r.ServiceDate, amountCents);
        const batchFiles = await countBatch(sql, body.BatchId, memberId);
        if (batchFiles >= MAX_FILES) throw badRequest(M.tooMany);
        const upload = await loadUpload(sql, body.UploadId, memberId);
        if (Number(upload.received) !== Number(upload.size)) throw badRequest('The file has not finished uploading.', statusOf(upload));
        // The first file of a new request with the date and amount of an earlier one: asked before its bytes are read
        // (the same bytes are compared once they are copied, below). Nothing is stored, the upload is kept.
        if (batchFiles === 0 && body.AllowDuplicate !== true) {
          const earlier = await findDuplicate(sql, memberId, body.BatchId, r.ServiceDate, amountCents, null);
          if (earlier) throw duplicateError(ctx, earlier);
        }
        const name = keptName(body.name);
        const refuse = async (message: Message, reason: string) => {
          // Chunks gone because a request of the same upload made it meanwhile are no refusal: the caller answers that one.
          if (await made()) return new Error('the upload was made by another request');
          await dropUpload(ctx, upload.id);
          await ctx.audit({
            action: 'reimbursement.create',
            outcome: 'refused',
            entity: 'reimbursement_upload',
            entityId: upload.id,
            detail: { name, reason },
          });
          return badRequest(message);
        };
        // The bytes in the store are the file's, all of them, before anything reads them (a hole is not "not a PDF").
        const incomplete = () => refuse(msg("'{{name}}' did not arrive whole. Send the file again.", { name }), 'incomplete');
        if (!(await uploadIsWhole(services.files, upload))) throw await incomplete();

        const content = await checkContentStream(name, async () => openUpload(services.files, upload));
        if (!content.ok) throw await refuse(content.message, 'content');
        const scan = await services.scanner.scan(openUpload(services.files, upload), name);
        if (!scan.clean)
          throw await refuse(
            msg("'{{name}}' was refused: the virus scanner found {{signature}}.", { name, signature: scan.signature }),
            `virus ${scan.signature}`,
          );

        // This attempt's own key: a request of the same upload at once never writes over it, nor deletes it. It is made
        // of ids and the checked extension only (the name is in the row): a name long in UTF-8 or odd cannot fail the
        // store. Files kept before are read by the key of their row, whatever its form.
        const key = `reimbursements/${memberId}/${upload.id}/${randomUUID()}.${body.ext}`;
        own.key = key;
        const hash = createHash('sha256');
        const stored = await services.files.put(key, hashing(openUpload(services.files, upload), hash), { contentType: content.contentType });
        if (stored.size !== Number(upload.size)) throw await incomplete();
        const sha256 = hash.digest('hex');
        return sql.transaction(async (tx) => {
          // One request at a time per batch: the count and the insert see the same rows.
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [body.BatchId]);
          // And per upload (a retry may name another batch): the one that made it is seen here, nothing is inserted twice.
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [upload.id]);
          // The IdempotencyKey is claimed first, in the transaction of the row: a create of the same key at once waits here
          // for this one to commit, then answers its row (or is refused, with another body); a refused create claims nothing.
          if (idempotencyKey !== null) {
            const claimed = await tx.query(
              'INSERT INTO reimbursement_create_keys (member_id, idempotency_key, fingerprint) VALUES ($1, $2, $3) ON CONFLICT (member_id, idempotency_key) DO NOTHING RETURNING member_id',
              [memberId, idempotencyKey, fingerprint],
            );
            if (claimed.length === 0) {
              const first = await replayOf(tx);
              if (!first) throw new Error('the idempotency key was claimed without its reimbursement');
              return { row: first, fresh: false };
            }
          }
          const claimKey = async (id: number) => {
            if (idempotencyKey !== null)
              await tx.query('UPDATE reimbursement_create_keys SET reimbursement_id = $3 WHERE member_id = $1 AND idempotency_key = $2', [
                memberId,
                idempotencyKey,
                id,
              ]);
          };
          const before = await made(tx);
          if (before) {
            // The upload was made by another create: the IdempotencyKey answers that one from now on.
            await claimKey(before.id);
            return { row: before, fresh: false };
          }
          // Again under the member's row (FOR SHARE) before anything is written: a termination since the first check is seen.
          await refuseAfterTermination(ctx, memberId, r.ServiceDate, tx);
          await mustOwnBatch(tx, body.BatchId, memberId);
          await mustMatchBatch(tx, body.BatchId, memberId, r.ServiceDate, amountCents);
          if ((await countBatch(tx, body.BatchId, memberId)) >= MAX_FILES) throw badRequest(M.tooMany);
          // The request's first file makes its bill; the member's other files of the request (sent together, or sent again
          // under the same BatchId after some were not) join it.
          const billed = (
            await tx.query<{ claim_id: number; claim_number: string }>(
              'SELECT claim_id, claim_number FROM reimbursements WHERE batch_id = $1 AND member_id = $2 LIMIT 1',
              [body.BatchId, memberId],
            )
          )[0];
          // A new request that looks like an earlier one (the same date and amount, or the same bytes) is refused unless
          // the member said to send it anyway: the transaction rolls back (no key claimed), the copy is deleted by the
          // caller, the upload stays for the resend. Sent anyway, the row names the request it looked like.
          const earlier = billed ? undefined : await findDuplicate(tx, memberId, body.BatchId, r.ServiceDate, amountCents, sha256);
          if (earlier && body.AllowDuplicate !== true) throw duplicateError(ctx, earlier);
          const claim = billed
            ? { ClaimID: billed.claim_id, ClaimNumber: billed.claim_number }
            : await ctx.use(claimsService).recordReimbursement(
                {
                  memberId,
                  billedCents: amountCents,
                  serviceDate: r.ServiceDate,
                  createdByUserId: ctx.user?.id ?? null,
                  createdByName: ctx.user?.name ?? null,
                  language: ctx.language,
                },
                tx,
              );
          const inserted = await tx.query<Row>(
            `INSERT INTO reimbursements (member_id, batch_id, upload_id, service_date, amount_cents, name, extension, content_type, declared_type, size, file_key, created_by, claim_id, claim_number, content_sha256, duplicate_of)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING ${COLUMNS}`,
            [
              memberId,
              body.BatchId,
              upload.id,
              r.ServiceDate,
              amountCents,
              name,
              body.ext,
              content.contentType,
              body.type,
              stored.size,
              key,
              ctx.user?.id ?? '',
              claim.ClaimID,
              claim.ClaimNumber,
              sha256,
              earlier?.id ?? null,
            ],
          );
          const row = inserted[0] as Row;
          await claimKey(row.id);
          await ctx.audit(
            {
              action: 'reimbursement.create',
              entity: 'reimbursement',
              entityId: String(row.id),
              detail: { name, size: stored.size, amountCents, batch: body.BatchId, idempotencyKey, ...(earlier ? { duplicateOf: earlier.id } : {}) },
            },
            tx,
          );
          return { row, fresh: true };
        });
      }
    },
  }),
  route(ReimbursementApi.list, {
    access: REIMBURSEMENT_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const rows = await ctx.database.sql.query<Row>(`SELECT ${COLUMNS} FROM reimbursements WHERE member_id = $1 ORDER BY created_at DESC, id DESC`, [
        memberId,
      ]);
      ctx.auditRead({ action: 'reimbursement.list', entity: 'reimbursement', detail: { count: rows.length } });
      const bills = await billsOf(ctx, memberId, rows);
      return rows.map((r) => wireOf(r, bills));
    },
  }),
  route(ReimbursementApi.listByClaim, {
    access: REIMBURSEMENT_ACCESS,
    // The files a bill was made from, for its detail page: the member's own only (another member's bill lists nothing).
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const rows = await ctx.database.sql.query<Row>(`SELECT ${COLUMNS} FROM reimbursements WHERE claim_id = $1 AND member_id = $2 ORDER BY created_at, id`, [
        ctx.params.id,
        memberId,
      ]);
      ctx.auditRead({ action: 'reimbursement.listByClaim', entity: 'claim', entityId: String(ctx.params.id), detail: { count: rows.length } });
      const bills = await billsOf(ctx, memberId, rows);
      return rows.map((r) => wireOf(r, bills));
    },
  }),
  route(ReimbursementApi.download, {
    access: REIMBURSEMENT_ACCESS,
    handler: async (ctx) => {
      const memberId = memberOf(ctx);
      const row = (await ctx.database.sql.query<Row>(`SELECT ${COLUMNS} FROM reimbursements WHERE id = $1 AND member_id = $2`, [ctx.params.id, memberId]))[0];
      if (!row) throw notFound('There is no such reimbursement.');
      const stored = await ctx.services.files.get(row.file_key);
      if (!stored) throw new ApiError(410, 'The file of this reimbursement is no longer kept.');
      ctx.auditRead({ action: 'reimbursement.download', entity: 'reimbursement', entityId: String(row.id) });
      return sendDownload(ctx.reply, { fileName: row.name, contentType: row.content_type, body: stored.body, size: stored.size });
    },
  }),
];
