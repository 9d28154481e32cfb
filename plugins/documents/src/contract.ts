import { defineEndpoint, idSchema, parseIsoDay, schemaText } from '@portal/core';
import { z } from 'zod';

/** Document Type lookup ids (platform/core lookups). */
export const DocumentType = {
  Form1099: 1,
  AnnualAccounting: 2,
  TemporaryDepletion: 3,
  PermanentDepletion: 4,
  MonthlyStatement: 5,
} as const;

/** Only these types are listed on /documents (spec 02 section 2). */
export const LISTED_DOCUMENT_TYPES: readonly number[] = [
  DocumentType.Form1099,
  DocumentType.AnnualAccounting,
  DocumentType.TemporaryDepletion,
  DocumentType.PermanentDepletion,
];

/** Page sizes offered on /documents; 20 by default (spec 02 section 9). */
export const DOCUMENT_PAGE_SIZES = [5, 10, 20, 50, 100] as const;
export const DEFAULT_DOCUMENT_PAGE_SIZE = 20;

export const documentSearchSchema = z.object({
  /** The member; absent or the acting member's own id (anyone else's is 404). */
  MemberId: idSchema.nullish(),
  PageSize: z.number().int().min(1).max(100).default(DEFAULT_DOCUMENT_PAGE_SIZE),
  /** 1-based. */
  PageNumber: z.number().int().min(1).max(100_000).default(1),
  /** Empty or absent: every listed type. Other types are never listed. */
  DocumentTypeIds: z.array(z.number().int().min(1).max(100)).max(20).default([]),
});
export type DocumentSearch = z.input<typeof documentSearchSchema>;

export const documentItemSchema = z.object({
  DocumentId: z.number().int(),
  DocumentTypeId: z.number().int(),
  DocumentType: z.string(),
  Title: z.string(),
  /** YYYY-MM-DD: the end of the year for yearly documents, the day of the event for letters. */
  EffectiveDate: z.string(),
  FileName: z.string(),
});
export type DocumentItem = z.infer<typeof documentItemSchema>;

export const documentPageSchema = z.object({ TotalRows: z.number().int(), Items: z.array(documentItemSchema) });

/** The document as the body (the list's item); only its id matters. */
export const downloadDocumentSchema = z.object({ DocumentId: idSchema });

export const statementSchema = z.object({
  DocumentId: z.number().int(),
  /** YYYY-MM */
  EffectiveMonth: z.string(),
});
export type Statement = z.infer<typeof statementSchema>;

export const statementSearchSchema = z.object({
  /** A year of the effective years; absent: every year. */
  Year: z.number().int().min(1900).max(9999).nullish(),
  PageSize: z.number().int().min(1).max(100).default(DEFAULT_DOCUMENT_PAGE_SIZE),
  PageNumber: z.number().int().min(1).max(100_000).default(1),
});

/** Uploaded documents are PDFs of at most this many bytes. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const UploadMessages = {
  type: 'Choose the kind of document: 1099, Annual Accounting, Temporary Depletion Letter or Permanent Depletion Letter.',
  tooLarge: 'A document may be at most 25 MB.',
  uploaded: "The document has been added to the member's documents.",
} as const;
/**
 * The longest file name an upload may send. The server keeps a name cut to 200 characters, its extension kept
 * (uploadFileName); this bound only stops an absurd query, far beyond any system's file names (255).
 */
export const MAX_FILE_NAME_INPUT = 1000;
/** Whether 'YYYY-MM-DD' is a real calendar day (not 2024-02-31, which the database refuses). */
const isRealDay = (s: string) => parseIsoDay(s) !== null;
/** A document staff add for the member they act for: its kind, date and file name travel in the query, the PDF as the body. */
export const uploadDocumentQuery = z.object({
  DocumentTypeId: z.coerce
    .number()
    .int()
    .refine((t) => LISTED_DOCUMENT_TYPES.includes(t), UploadMessages.type),
  EffectiveDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date (YYYY-MM-DD)', abort: true })
    .refine(isRealDay, 'is not a valid calendar date'),
  FileName: z
    .string()
    .trim()
    .min(1)
    .max(MAX_FILE_NAME_INPUT, schemaText('must be at most {{max}} characters', { max: MAX_FILE_NAME_INPUT }))
    .refine((n) => n.toLowerCase().endsWith('.pdf'), 'must be a PDF (.pdf)'),
});

export const DocumentsApi = {
  getMemberDocuments: defineEndpoint({ method: 'POST', path: '/api/documents/getMemberDocuments', body: documentSearchSchema, response: documentPageSchema }),
  downloadDocument: defineEndpoint({ method: 'POST', path: '/api/documents/downloadDocument', body: downloadDocumentSchema, answer: 'file' }),
  /** SuperUser acting for a member adds a document (a PDF, content-checked and virus-scanned) to the member's list. */
  uploadDocument: defineEndpoint({
    method: 'POST',
    path: '/api/documents/uploadDocument',
    query: uploadDocumentQuery,
    bodyEncoding: 'binary',
    response: documentItemSchema,
  }),
  statementSearch: defineEndpoint({
    method: 'POST',
    path: '/api/statements/search',
    body: statementSearchSchema,
    response: z.object({ TotalRows: z.number().int(), Items: z.array(statementSchema) }),
  }),
  monthlyStatements: defineEndpoint({
    method: 'GET',
    path: '/api/statements/getMemberMonthlyStatements',
    query: z.object({ selectedYear: z.coerce.number().int().min(1900).max(9999) }),
    response: z.array(statementSchema),
  }),
  downloadStatement: defineEndpoint({
    method: 'GET',
    path: '/api/statements/downloadMemberStatement',
    query: z.object({ documentId: idSchema }),
    answer: 'file',
  }),
  effectiveYears: defineEndpoint({ method: 'GET', path: '/api/statements/getMemberStatementsEffectiveYears', response: z.array(z.number().int()) }),
} as const;
