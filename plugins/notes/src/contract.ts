import { createKeySchema, defineEndpoint, idSchema, LOOKUP_ITEMS, LookupCategory, msg, pageIndexSchema, schemaText } from '@portal/core';
import { z } from 'zod';

/**
 * My Messages (spec 02 sections 3, 7 and 9): a member's conversation with support. Every note records its author by
 * name and whether a member or staff wrote it; staff replies stay unread until the member opens them. Notes carry up
 * to 10 attachments, sent as base64 in the JSON body (see the plugin's README) and checked by content on the server.
 */

export const NOTE_PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const NOTE_PAGE_SIZE = 20;
/** The list's default range: the last 4 years (spec 02 section 9). */
export const NOTE_DEFAULT_RANGE_YEARS = 4;
export const MAX_NOTE_TEXT = 4000;
/** Recent notes on the dashboard. */
export const RECENT_NOTES = 5;
/** Global search: at most 5 results (spec 02 section 9). */
export const NOTE_SEARCH_LIMIT = 5;

/** Note Type lookup keys: Member Notes (1, the default), Support Notes (2, staff only), System Notes (3, never from a user). */
export const NoteType = { Member: 1, Support: 2, System: 3 } as const;
export const DEFAULT_NOTE_TYPE_ID = NoteType.Member;
/** Staff writing without a type write Support Notes: their replies are support's, not the member's. */
export const STAFF_DEFAULT_NOTE_TYPE_ID = NoteType.Support;
/**
 * The note types' names by key: the kernel's 'Note Type' lookup (the `lookups` table is seeded from the same items);
 * notes store the key (`notes.note_type_id`), the wire carries both, `NoteType` being the spec's name.
 */
export const NOTE_TYPE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  LOOKUP_ITEMS.filter((i) => i.Category === LookupCategory.NoteType).map((i) => [i.Key, i.Value]),
);
/** Spec 02 section 3: NoteType defaults to 'Member Notes'. */
export const DEFAULT_NOTE_TYPE = NOTE_TYPE_NAMES[DEFAULT_NOTE_TYPE_ID] as string;
/** The types a user may write: Member Notes and (staff) Support Notes; System Notes never come through the API. */
const WRITABLE_NOTE_TYPE_IDS: readonly number[] = [NoteType.Member, NoteType.Support];
/** A note type's name for its key; the key as text for one the lookup does not know. */
export const noteTypeName = (id: number): string => NOTE_TYPE_NAMES[id] ?? String(id);
/** The key of a writable note type's name, in any case and spacing; undefined when there is none. */
export function writableNoteTypeId(name: string): number | undefined {
  const wanted = name.trim().replace(/\s+/g, ' ').toLowerCase();
  return WRITABLE_NOTE_TYPE_IDS.find((id) => NOTE_TYPE_NAMES[id]?.toLowerCase() === wanted);
}

/** Attachments: at most 10 per note, the reimbursement extensions only, checked by content. */
export const MAX_ATTACHMENTS = 10;
export const ATTACHMENT_EXTENSIONS = ['pdf', 'gif', 'jpeg', 'jpg', 'png', 'doc', 'docx', 'xls', 'xlsx'] as const;
export type AttachmentExtension = (typeof ATTACHMENT_EXTENSIONS)[number];
/** One file at most 5 MiB, all files of one request at most 7 MiB (base64 adds a third; the API takes 10 MiB bodies). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS_BYTES = 7 * 1024 * 1024;
/**
 * The longest file name an attachment may send. The server keeps a name cut to 200 characters, its extension kept (the
 * kernel's uploadFileName); this bound only stops an absurd body, far beyond any system's file names (255).
 */
export const MAX_FILE_NAME = 1000;

/** Who wrote a note: the member, or staff (support, whoever of them). */
export const NOTE_AUTHOR_KINDS = ['Member', 'Staff'] as const;
export type NoteAuthorKind = (typeof NOTE_AUTHOR_KINDS)[number];
/**
 * Each author kind's name in English, as the pages show it beside the author's name (the web's `notes:kind.<kind>`,
 * kept in step by a test): the server's message keys, translated by its catalogue, so a search word that begins a word
 * of it ('support', 'team', 'equipo') finds the notes of that kind, as the member sees them.
 */
export const NOTE_AUTHOR_KIND_NAMES: Readonly<Record<NoteAuthorKind, string>> = { Member: 'Member', Staff: 'Support team' };

export const TOO_MANY_ATTACHMENTS = msg('Maximum of {{max}} files can be attached to a message.', { max: MAX_ATTACHMENTS });
export const NOTE_NOT_FOUND = 'The message was not found.';
export const STALE_NOTE_MESSAGE = 'This message was changed by someone else. Reload it and make your change again.';

export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};
/** Decoded size of base64 text (without decoding it). */
export const base64Bytes = (b64: string): number => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const attachmentUploadSchema = z.object({
  FileName: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(MAX_FILE_NAME, schemaText('must be at most {{max}} characters', { max: MAX_FILE_NAME }))
    .refine((n) => !/[\\/]/.test(n), 'must be a file name, not a path')
    .refine(
      (n) => (ATTACHMENT_EXTENSIONS as readonly string[]).includes(extensionOf(n)),
      schemaText('must end in one of {{extensions}}', { extensions: `.${ATTACHMENT_EXTENSIONS.join(', .')}` }),
    ),
  /** The file's bytes, base64. */
  Content: z
    .string({ error: 'is required' })
    .min(1, 'is empty')
    .max(Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4, 'is larger than 5 MB')
    .regex(BASE64, 'must be base64'),
});
export type AttachmentUpload = z.infer<typeof attachmentUploadSchema>;

const attachmentsSchema = z
  .array(attachmentUploadSchema)
  .max(MAX_ATTACHMENTS, String(TOO_MANY_ATTACHMENTS))
  .refine((list) => list.reduce((n, a) => n + base64Bytes(a.Content), 0) <= MAX_ATTACHMENTS_BYTES, 'are larger than 7 MB together')
  .default([]);

const noteText = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(MAX_NOTE_TEXT, schemaText('must be at most {{max}} characters', { max: MAX_NOTE_TEXT }));
/** The type by key (the web's form sends it); absent: see noteTypeIdOf. */
const noteTypeId = z.preprocess(
  (v) => (v === '' || v == null ? undefined : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'must be a note type key' })
    .int()
    .refine((n) => WRITABLE_NOTE_TYPE_IDS.includes(n), 'must be Member Notes (1) or Support Notes (2)')
    .optional(),
);
/** The type by name, as spec 02 section 3 calls it (NoteType); answered as the lookup spells it. */
const noteTypeNameSchema = z.preprocess(
  (v) => (v === '' || v == null ? undefined : typeof v === 'string' ? (NOTE_TYPE_NAMES[writableNoteTypeId(v) ?? 0] ?? v) : v),
  z
    .string({ error: 'must be a note type: Member Notes or Support Notes' })
    .refine((n) => writableNoteTypeId(n) !== undefined, 'must be a note type: Member Notes or Support Notes')
    .optional(),
);
/** NoteType and NoteTypeID may both come; then they must name the same type. */
const sameType = (b: { NoteType?: string | undefined; NoteTypeID?: number | undefined }, ctx: z.RefinementCtx) => {
  if (b.NoteType !== undefined && b.NoteTypeID !== undefined && writableNoteTypeId(b.NoteType) !== b.NoteTypeID)
    ctx.addIssue({ code: 'custom', path: ['NoteType'], message: 'does not match NoteTypeID' });
};
/** The type named by a create or update: by name, else by key, else Member Notes (1) (the server: Support Notes for staff). */
export const noteTypeIdOf = (b: { NoteType?: string | undefined; NoteTypeID?: number | undefined }): number =>
  (b.NoteType === undefined ? undefined : writableNoteTypeId(b.NoteType)) ?? b.NoteTypeID ?? DEFAULT_NOTE_TYPE_ID;

export const noteCreateSchema = z
  .object({
    NoteText: noteText,
    /** The type's name: 'Member Notes' (a member's default) or, for staff, 'Support Notes' (staff's default). */
    NoteType: noteTypeNameSchema,
    /** The same by key (1 or 2), kept for the web's form. */
    NoteTypeID: noteTypeId,
    /** The note this one answers; absent for a new conversation. */
    ReplyToID: z.preprocess((v) => (v === '' || v === 0 ? null : v), idSchema.nullish()),
    Attachments: attachmentsSchema,
    /**
     * Ours, not the spec's: one key per new note (or reply), sent again unchanged when the create is retried, so a
     * create whose answer was lost adds its note once (the note it made is answered again).
     */
    IdempotencyKey: createKeySchema.nullish(),
  })
  .superRefine(sameType);
export type NoteCreate = z.infer<typeof noteCreateSchema>;

export const noteUpdateSchema = z
  .object({
    NoteID: idSchema,
    Version: idSchema,
    NoteText: noteText,
    /** As on create; neither NoteType nor NoteTypeID: the note keeps its type. */
    NoteType: noteTypeNameSchema,
    NoteTypeID: noteTypeId,
    /** Files to add (the note keeps at most 10). */
    Attachments: attachmentsSchema,
    /** Attachments of this note to remove. */
    RemoveAttachmentIDs: z.array(idSchema).max(MAX_ATTACHMENTS).default([]),
  })
  .superRefine(sameType);
export type NoteUpdate = z.infer<typeof noteUpdateSchema>;

export const attachmentSchema = z.strictObject({
  AttachmentID: z.number().int().positive(),
  FileName: z.string(),
  ContentType: z.string(),
  Size: z.number().int().nonnegative(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

const wireTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

export const noteSchema = z.strictObject({
  NoteID: z.number().int().positive(),
  MemberID: z.number().int().positive(),
  NoteText: z.string(),
  NoteTypeID: z.number().int(),
  /** The type's name (spec 02 section 3): 'Member Notes', 'Support Notes' or 'System Notes'. */
  NoteType: z.string(),
  /** The author's name. */
  CreatedBy: z.string(),
  /** Whether the member or staff wrote it. */
  CreatedByKind: z.enum(NOTE_AUTHOR_KINDS),
  CreatedDate: wireTimestamp,
  UpdatedDate: wireTimestamp,
  ReplyToID: z.number().int().positive().nullable(),
  /**
   * Whether it is read for the caller. The member: a staff reply is unread until they open it. Staff: a member note is
   * unread until a staff user opens its conversation (or replies in it); staff replies are read.
   */
  IsRead: z.boolean(),
  /** Whether the caller wrote it and so may edit it. */
  CanEdit: z.boolean(),
  Version: z.number().int().positive(),
  Attachments: z.array(attachmentSchema),
});
export type Note = z.infer<typeof noteSchema>;

/** A note with its conversation: the first note and every reply to it, oldest first. */
export const noteDetailSchema = noteSchema.extend({ Thread: z.array(noteSchema) });
export type NoteDetail = z.infer<typeof noteDetailSchema>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const optDate = z.preprocess(
  (v) => (v === '' ? null : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v),
  z
    .string()
    .regex(DATE, 'must be a date as YYYY-MM-DD')
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2999;
    }, 'is not a valid calendar date')
    .nullish(),
);

export const noteSearchSchema = z
  .object({
    /** Inclusive days; absent: the last 4 years up to today. */
    DateFrom: optDate,
    DateTo: optDate,
    Query: z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), z.string().max(100, 'must be at most 100 characters').nullish()),
    PageIndex: pageIndexSchema,
    PageSize: z.coerce
      .number()
      .int()
      .refine((n) => (NOTE_PAGE_SIZES as readonly number[]).includes(n), schemaText('must be one of {{values}}', { values: NOTE_PAGE_SIZES.join(', ') }))
      .default(NOTE_PAGE_SIZE),
  })
  .refine((f) => !f.DateFrom || !f.DateTo || f.DateFrom <= f.DateTo, { message: 'must not be after DateTo', path: ['DateFrom'] });
export type NoteSearch = z.infer<typeof noteSearchSchema>;

export const noteSearchResultSchema = z.strictObject({
  Items: z.array(noteSchema),
  ItemCount: z.number().int().nonnegative(),
  /** The notes unread for the caller (see IsRead), in any range. */
  UnreadCount: z.number().int().nonnegative(),
});
export type NoteSearchResult = z.infer<typeof noteSearchResultSchema>;

export const noteGlobalSearchQuerySchema = z.object({
  q: z.string().trim().min(2, 'Please enter at least 2 characters').max(60),
  s: z.coerce.number().int().min(1).max(NOTE_SEARCH_LIMIT).default(NOTE_SEARCH_LIMIT).catch(NOTE_SEARCH_LIMIT),
});

/** One member whose conversation waits for support: their latest note is theirs (a member note not yet answered). */
export const openConversationSchema = z.strictObject({
  MemberID: z.number().int().positive(),
  MemberNumber: z.string(),
  MemberName: z.string(),
  /** The member's latest note (it opens the conversation). */
  NoteID: z.number().int().positive(),
  /** Its first 120 characters. */
  Excerpt: z.string(),
  CreatedDate: wireTimestamp,
  /** The member's notes no staff user has opened yet. */
  UnreadCount: z.number().int().nonnegative(),
});
export type OpenConversation = z.infer<typeof openConversationSchema>;
/** The open conversations support sees at most; Count says how many there are. */
export const OPEN_CONVERSATIONS_LIMIT = 50;
export const openConversationsSchema = z.strictObject({ Items: z.array(openConversationSchema), Count: z.number().int().nonnegative() });
export type OpenConversations = z.infer<typeof openConversationsSchema>;

export const NotesApi = {
  /** The conversation of the member the request acts for, newest first. */
  search: defineEndpoint({ method: 'POST', path: '/api/notes/search', body: noteSearchSchema, response: noteSearchResultSchema }),
  /** One note with its thread; a member opening it marks staff replies read. */
  getById: defineEndpoint({ method: 'GET', path: '/api/notes/getById/:id', params: z.object({ id: idSchema }), response: noteDetailSchema }),
  create: defineEndpoint({ method: 'POST', path: '/api/notes/create', body: noteCreateSchema, response: noteSchema }),
  update: defineEndpoint({ method: 'POST', path: '/api/notes/update', body: noteUpdateSchema, response: noteSchema }),
  /** Downloads one attachment (x-filename). */
  attachment: defineEndpoint({
    method: 'GET',
    path: '/api/notes/attachment/:noteId/:attachmentId',
    params: z.object({ noteId: idSchema, attachmentId: idSchema }),
    answer: 'file',
  }),
  /** The notes unread for the caller (see IsRead), for the navigation badge. */
  unread: defineEndpoint({ method: 'GET', path: '/api/notes/unread', response: z.strictObject({ Count: z.number().int().nonnegative() }) }),
  /** The dashboard's recent notes, newest first. */
  recent: defineEndpoint({ method: 'GET', path: '/api/dashboard/notes', response: z.array(noteSchema) }),
  /**
   * Support's inbox (CareSupport, SuperUser): the members whose latest note is an unanswered member note, longest
   * waiting first, at most 50. Ours, not the spec's.
   */
  open: defineEndpoint({ method: 'GET', path: '/api/support/notes/open', response: openConversationsSchema }),
  /** The toolbar's global search of notes. */
  globalSearch: defineEndpoint({ method: 'GET', path: '/api/search/searchNotes', query: noteGlobalSearchQuerySchema, response: z.array(noteSchema) }),
} as const;
