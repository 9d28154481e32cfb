/**
 * What a plugin may use of the server kernel: the plugin contract, the request context, errors, the
 * kernel services' types and a few pure helpers. The kernel's tables are reached only through the
 * services; assembling the app (database, migrations, buildApp) is in '@portal/server/kernel'.
 */

export { type Catalogue, type Catalogues, type Message, msg, Text, type TextParams } from '@portal/core';
export type { AuditEntry } from './audit';
export { hashPassword, verifyPassword } from './auth/password';
export { reissueSessionTokens } from './auth/token-route';
export { randomToken, sha256 } from './auth/tokens';
export { type CountedPage, countKey, KEPT_COUNTS_DEFAULTS, KeptCounts, type KeptCountsOptions, keptCountsFor } from './cache/keptCounts';
export { KeptResults } from './cache/keptResults';
export { brandSiteAddress, isHttpAddress, type ServerConfig } from './config';
export type { SqlClient } from './db/database';
export {
  allWordsSql,
  containsPattern,
  escapeLike,
  foldSql,
  foldText,
  MAX_SEARCH_WORDS,
  MEMBER_TEXT,
  phoneDigits,
  type SqlParam,
  searchWords,
  sqlParams,
  storedSearchTextSql,
} from './db/search';
export * from './documents/mime';
export type { PdfBlock, PdfBrand, PdfCardFace, PdfDocumentSpec, PdfTableColumn } from './documents/pdf';
export type { DocumentOptions, PdfService, SheetService, Translate } from './documents/services';
export type { SheetColumn, SheetFormat, SheetRow, SheetSpec } from './documents/sheet';
export { byteLimit } from './files/byteLimit';
export {
  type ContentCheck,
  checkContent,
  checkContentStream,
  DOCUMENT_EXTENSIONS,
  type DocumentExtension,
  extensionOf as fileExtensionOf,
} from './files/contentCheck';
export { MAX_UPLOAD_FILE_NAME, uploadFileName } from './files/fileName';
export type { FileBody, FileEntry, FileInfo, FileStore, PutOptions, StoredFile } from './files/fileStore';
export { assertFileKey, FileKeyError } from './files/keys';
export { type Download, sendDownload } from './files/sendDownload';
export * from './http/context';
export * from './http/errors';
export { allowFrameSources, loggedError, SECRET_PATH_PREFIXES } from './http/security';
export type { Translator } from './i18n/translator';
export { pruneKeyTable, scheduleHousekeeping } from './jobs/housekeeping';
export type { DefineOptions, JobHandler, JobInfo, JobQueue, SendOptions } from './jobs/queue';
export type { AuditService } from './kernel-services/audit';
export type { BrandsService } from './kernel-services/brands';
export { CREATE_KEY_RETENTION_DAYS, CREATE_KEY_REUSED, type CreateKeyRef, type CreateKeysService, requestFingerprint } from './kernel-services/createKeys';
export type { IdentityService, NewUser, UserPatch, UserRow, UserSearch, UserSummary } from './kernel-services/identity';
export { type MemberPatch, type MemberRecord, type MembersService, STALE_MEMBER_MESSAGE } from './kernel-services/members';
export { KernelThrottle, type ThrottleRule, type ThrottleService } from './kernel-services/throttle';
export * from './plugin';
export {
  type BankAccount,
  type BankAggregator,
  BankAggregatorError,
  BankAggregatorUnavailableError,
  type BankForm,
  type BankFormField,
  type BankInstitution,
  type BankLink,
  type BankLinkResult,
  type BankLinkStatus,
  type BankLinkToken,
  type BankTransaction,
  type BankTransactionFilter,
} from './providers/banks';
export { type DeliveryOptions, jobIdempotencyKey, type MailMessage, type MailTransport, type SendMailOptions } from './providers/mail';
export { type BrandedMail, brandedMail } from './providers/mailLayout';
export { type FederalPayer, type PayerAck, PayerError, type PayerRecord, type PayerSubmission } from './providers/payer';
export {
  type GatewayCustomer,
  GatewayError,
  type GatewayPaymentProfile,
  type GatewaySubscription,
  type GatewayTransaction,
  GatewayUnavailableError,
  gatewayConfigFromEnv,
  type PaymentGateway,
  type TransactionRequest,
  type WebhookEvent,
} from './providers/payments';
export type { ScanResult, VirusScanner } from './providers/scanner';
export type { PhoneLookup, SmsMessage, SmsTransport } from './providers/sms';
export * from './services';
