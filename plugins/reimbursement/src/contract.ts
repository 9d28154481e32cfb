import { defineEndpoint, idSchema, isWholeCents, parseIsoDay, parseMoney, schemaText, specText, validationMessages } from '@portal/core';
import { z } from 'zod';
import { ReimbursementMessages as M, MAX_AMOUNT, MAX_FILES, REIMBURSEMENT_EXTENSIONS } from './rules';

/**
 * Reimbursements (spec 02 sections 3, 5, 7 and 9). The bytes travel first, through a resumable upload of this plugin
 * (start, then chunks of CHUNK_BYTES at the offset the server has, which the client asks for after an interruption);
 * then POST /api/reimbursements/create names the finished upload with the spec's fields (type, name, ext and the
 * reimbursement JSON). Nothing of the file is kept until create has checked its content and scanned it.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Whether 'YYYY-MM-DD' is a real calendar day (not 2024-02-31, which the database refuses). */
const isRealDay = (s: string) => parseIsoDay(s) !== null;
const day = z.string().regex(DAY, { message: 'must be a date (YYYY-MM-DD)', abort: true }).refine(isRealDay, 'is not a valid calendar date');
/**
 * An amount as the page sends it (text such as '12,5' or '$1,000.00', or a number), in dollars. Not the shared
 * moneySchema, which rounds to cents (10.005 would become 10.01, a sum the member never typed): more than two decimals is
 * a 400 here, as every other money input of the portal. Capped at the claims plugin's MAX_AMOUNT (a request becomes a
 * bill there), so an amount too large for the database is a 400, not a 500. Empty and not more than 0 are the spec's
 * rule (checkDateAndAmount, 'Please input service date and amount.').
 */
export const amountSchema = z
  .union([z.string(), z.number()])
  .transform((value, ctx) => {
    const n = parseMoney(value);
    if (n === null) {
      ctx.addIssue({ code: 'custom', message: validationMessages.money });
      return z.NEVER;
    }
    return n;
  })
  .pipe(z.number().max(MAX_AMOUNT, 'is too large').refine(isWholeCents, 'must have at most 2 decimals'));
const uploadId = z.uuid({ error: 'must be an upload id' });
/**
 * The longest file name a call may send. The server keeps a name cut to 200 characters, its extension kept (the
 * kernel's uploadFileName); this bound only stops an absurd body, far beyond any system's file names (255).
 */
export const MAX_FILE_NAME_INPUT = 1000;
const fileName = z
  .string()
  .trim()
  .min(1, specText(M.noFile))
  .max(MAX_FILE_NAME_INPUT, schemaText('must be at most {{max}} characters', { max: MAX_FILE_NAME_INPUT }));
const extension = z
  .string()
  .trim()
  .toLowerCase()
  .refine((e) => (REIMBURSEMENT_EXTENSIONS as readonly string[]).includes(e.replace(/^\./, '')), M.extension)
  .transform((e) => e.replace(/^\./, ''));

export const uploadStartSchema = z.object({
  FileName: fileName,
  /** Bytes the file has: 1 to 1 GB. */
  Size: z.number().int().min(1, specText(M.noFile)).max(Number.MAX_SAFE_INTEGER),
});
export const uploadStatusSchema = z.object({
  UploadId: z.string(),
  FileName: z.string(),
  Size: z.number().int(),
  /** Bytes the server has: the next chunk starts here. */
  Offset: z.number().int(),
  ChunkSize: z.number().int(),
});
export type UploadStatus = z.infer<typeof uploadStatusSchema>;
export const uploadParams = z.object({ id: uploadId });
export const chunkQuery = z.object({ Offset: z.coerce.number().int().min(0) });

/**
 * A create's idempotency key (not in the spec; as the ledger's): the page makes one per file of a request and sends it
 * again with every retry of that file, so a create whose answer was lost stores its file once.
 */
export const idempotencyKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8 to 100 letters, digits or - _ . :')
  .optional();

/** One file of a request, as the spec's create call names it, plus the finished upload that holds its bytes. */
export const createSchema = z.object({
  /** The file's content type as the browser named it (kept for the list; the server decides from the bytes). */
  type: z.string().trim().max(200).default(''),
  name: fileName,
  ext: extension,
  UploadId: uploadId,
  /** The files sent together as one request (at most 10 share one). */
  BatchId: z.uuid({ error: 'must be a batch id' }),
  reimbursement: z.object({
    type: z.string().trim().max(200).default(''),
    FileName: fileName,
    Extension: extension,
    ServiceDate: z.union([day, z.literal('')]),
    Amount: z.union([amountSchema, z.literal('')]),
  }),
  /**
   * The member's key for this file of this request: a create repeated with a key already used stores nothing and answers
   * the reimbursement the key made (its UploadId may differ: a retry after a lost answer uploads the file again); the
   * key with another file, request, date or amount is refused (409).
   */
  IdempotencyKey: idempotencyKey,
  /**
   * Not in the spec's wire list (this plugin's): the first file of a new request that looks like one the member already
   * sent (the same service date and amount, or the same file) is refused with 409 and a DuplicateRequest in its Data,
   * nothing stored; the same create sent again with AllowDuplicate true goes through (the member said "Send anyway").
   */
  AllowDuplicate: z.boolean().optional(),
});
export type CreateBody = z.infer<typeof createSchema>;
export type CreateInput = z.input<typeof createSchema>;

export const reimbursementSchema = z.object({
  Id: z.number().int(),
  ServiceDate: day,
  Amount: z.number(),
  Name: z.string(),
  Extension: z.string(),
  type: z.string(),
  Size: z.number().int(),
  CreatedAt: z.iso.datetime(),
  /** The bill the request became, which finance staff review on /claims. */
  ClaimNumber: z.string().nullable(),
  /** Not in the spec's list (added so the page shows one row per request): the request the file was sent with. */
  BatchId: z.string(),
  /** The bill's status (the claims plugin's ClaimStatus id) and its name there ('Received', 'Paid', 'Denied' ...); null without a bill. */
  ClaimStatusID: z.number().int().nullable(),
  ClaimStatus: z.string().nullable(),
  /** What the bill was paid (dollars) and when ('YYYY-MM-DD'); null until a payment is recorded. */
  PaidAmount: z.number().nullable(),
  PaidDate: day.nullable(),
});
export type Reimbursement = z.infer<typeof reimbursementSchema>;

/**
 * The Data of create's 409 when the first file of a new request looks like a request the member already sent (the same
 * service date and amount, or the same file): the earlier request, which the message names too. The page asks
 * "Send anyway?" and sends the file again with AllowDuplicate true.
 */
export const duplicateRequestSchema = z.object({
  Duplicate: z.literal(true),
  /** Why it looks the same: the same service date and amount, or (another date or amount) the same file. */
  Reason: z.enum(['dateAndAmount', 'sameFile']),
  Earlier: z.object({
    Id: z.number().int(),
    ClaimNumber: z.string().nullable(),
    ServiceDate: day,
    Amount: z.number(),
    CreatedAt: z.iso.datetime(),
  }),
});
export type DuplicateRequest = z.infer<typeof duplicateRequestSchema>;

export const ReimbursementApi = {
  /** Starts an upload of one file; answers where to send its bytes. */
  uploadStart: defineEndpoint({ method: 'POST', path: '/api/reimbursements/uploads', body: uploadStartSchema, response: uploadStatusSchema }),
  /** How much of an upload the server has (to resume after an interruption). */
  uploadStatus: defineEndpoint({ method: 'GET', path: '/api/reimbursements/uploads/:id', params: uploadParams, response: uploadStatusSchema }),
  /** One chunk of the bytes at Offset (the server's offset; otherwise 409 with the status). */
  uploadChunk: defineEndpoint({
    method: 'PATCH',
    path: '/api/reimbursements/uploads/:id',
    params: uploadParams,
    query: chunkQuery,
    bodyEncoding: 'binary',
    response: uploadStatusSchema,
  }),
  /** Drops an upload that will not be finished. */
  uploadCancel: defineEndpoint({
    method: 'DELETE',
    path: '/api/reimbursements/uploads/:id',
    params: uploadParams,
    response: z.object({ UploadId: z.string() }),
  }),
  create: defineEndpoint({ method: 'POST', path: '/api/reimbursements/create', body: createSchema, response: reimbursementSchema }),
  list: defineEndpoint({ method: 'GET', path: '/api/reimbursements/list', response: z.array(reimbursementSchema) }),
  /**
   * Not in the spec (this plugin's): the files of one bill (a ClaimID), as list answers them, in the order they were
   * sent; the bill's detail page shows them as its receipts. The member's own, as list: another member's bill, or a
   * bill made from no request, answers an empty list.
   */
  listByClaim: defineEndpoint({
    method: 'GET',
    path: '/api/reimbursements/listByClaim/:id',
    params: z.object({ id: idSchema }),
    response: z.array(reimbursementSchema),
  }),
  download: defineEndpoint({
    method: 'GET',
    path: '/api/reimbursements/download/:id',
    params: z.object({ id: idSchema }),
    answer: 'file',
  }),
} as const;

export { MAX_FILES };
