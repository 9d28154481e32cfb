/**
 * The server kernel's assembly API, for apps/server, scripts and tests only (plugins import '@portal/server').
 */

export * from './audit';
export * from './auth/password';
export { forgetSessions, SESSION_CACHE_MS } from './auth/session';
export * from './auth/throttle';
export { BUSY_RETRY_SECONDS, TokenMessages } from './auth/token-route';
export * from './auth/tokens';
export * from './auth/users';
export * from './config';
export * from './db/database';
export { kernelMigrations } from './db/kernel-migrations';
export * from './db/migrate';
export * from './db/replica';
export { writeCsv } from './documents/csvWriter';
export { pdfService, sheetService, translatedDocuments } from './documents/services';
export { createFileStore, type FileStoreConfig } from './files/createFileStore';
export { LocalFileStore } from './files/localFileStore';
export { MemoryFileStore } from './files/memoryFileStore';
export type { S3Settings } from './files/s3FileStore';
export * from './http/app';
export { DRAIN_TIMEOUT_MS } from './http/drain';
export * from './http/input';
export * from './http/security';
export * from './index';
export * from './jobs';
export { kernelPlugin } from './kernel-plugin';
export { auditService } from './kernel-services/audit';
export { identityService } from './kernel-services/identity';
export { membersService } from './kernel-services/members';
export { throttleService } from './kernel-services/throttle';
export * from './plugin-graph';
export * from './providers/banks';
export * from './providers/mail';
export * from './providers/payer';
export * from './providers/payments';
export * from './providers/scanner';
export * from './providers/sms';
