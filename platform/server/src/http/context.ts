import type { Readable } from 'node:stream';
import type { BrandManifest, EndpointParsed, EndpointSpec, Language, Message, ServiceRef } from '@portal/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditEntry } from '../audit';
import type { ServerConfig } from '../config';
import type { Database, SqlClient } from '../db/database';
import type { KernelServices } from '../services';

export interface AuthUser {
  id: string;
  name: string;
  roles: string[];
  /** The user's own member record, when the user is a member. */
  memberId: number | null;
  sessionId: string;
}

export type RequestAuditEntry = Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>;

export interface RouteContext<E extends EndpointSpec = EndpointSpec> extends EndpointParsed<E> {
  req: FastifyRequest;
  reply: FastifyReply;
  database: Database;
  /**
   * The client for searches and lists, where data a few seconds old is fine except the caller's own changes: the
   * read replica (DATABASE_READ_URL) when it has replayed the caller's last change (`x-read-after`) and is not
   * lagging, else the primary, `database.sql`. For reads; a read that decides a write (a Version check, an
   * idempotency key) stays on `database.sql`.
   */
  readonly searchSql: SqlClient;
  config: ServerConfig;
  services: KernelServices;
  /** The service of a plugin this one declares in dependsOn. */
  use<T>(ref: ServiceRef<T>): T;
  /** The brand of the site the request came from (by host); null on hosts of no brand. */
  brand: BrandManifest | null;
  user: AuthUser | null;
  /** The member the request acts for: the impersonated member, else the user's own; null for staff without one. */
  memberId: number | null;
  impersonating: boolean;
  /**
   * Records an audit entry naming the user (and the impersonated member). Pass the transaction of the
   * write it records, so the change and its audit row commit together or not at all. A list of entries (a change to
   * many records at once) is written in one statement.
   */
  audit(entry: RequestAuditEntry | readonly RequestAuditEntry[], tx?: SqlClient): Promise<void>;
  /** Audits a read of member data without waiting: batched off the request's path (see AuditBuffer). */
  auditRead(entry: RequestAuditEntry): void;
  /** A 'binary' endpoint's body as it arrives (unbuffered; the handler must consume it); null on other endpoints. */
  binary: Readable | null;
  /** The body's bytes as sent, on an endpoint that asks for them (`rawBody: true`); null on others. */
  rawBody: Buffer | null;
  /** The language the user reads (their remembered choice, else their browser's first): messages go out in it. */
  language: Language;
  /**
   * The caller's IANA time zone (the web sends the browser's, `x-time-zone`), else the business's
   * (`config.businessTimeZone`). A filter over moments by day ("notes from 03/01 to 03/10") takes the days in it, as
   * the caller's page shows the moments; a rule about the business's day uses `config.businessTimeZone` instead.
   */
  timeZone: string;
  /**
   * A message in the user's language, for a message the answer carries in its data (a result's text). Errors
   * (`badRequest` ...) and `withMessage` are translated by the kernel: pass them the message itself.
   */
  t(message: Message): string;
}

/** What a handler may return besides plain data: data with a message for the user, or a reply it sent itself. */
export class WithMessage<T> {
  constructor(
    public readonly data: T,
    public readonly message: Message,
  ) {}
}
export const withMessage = <T>(data: T, message: Message) => new WithMessage(data, message);
/** The handler sent the reply itself (downloads, OAuth answers). A class instance, not a symbol: its type survives inference. */
export class Sent {
  readonly sent = true;
}
export const SENT = new Sent();
