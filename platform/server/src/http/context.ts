import type { BrandManifest } from '@portal/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AuditEntry } from '../audit';
import type { ServerConfig } from '../config';
import type { Database } from '../db/database';
import type { Services } from '../services';

export interface AuthUser {
  id: string;
  name: string;
  roles: string[];
  /** The user's own member record, when the user is a member. */
  memberId: number | null;
  sessionId: string;
}

export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}
type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteContext<S extends RouteSchemas = RouteSchemas> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: Infer<S['body']>;
  query: Infer<S['query']>;
  params: Infer<S['params']>;
  database: Database;
  config: ServerConfig;
  services: Services;
  /** The brand of the site the request came from (by host); null on hosts of no brand. */
  brand: BrandManifest | null;
  user: AuthUser | null;
  /** The member the request acts for: the impersonated member, else the user's own; null for staff without one. */
  memberId: number | null;
  impersonating: boolean;
  /** Records an audit entry naming the user (and the impersonated member). */
  audit(entry: Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>): Promise<void>;
}

/** What a handler may return besides plain data: data with a message for the user, or a reply it sent itself. */
export class WithMessage<T> {
  constructor(
    public readonly data: T,
    public readonly message: string,
  ) {}
}
export const withMessage = <T>(data: T, message: string) => new WithMessage(data, message);
export const SENT = Symbol('reply already sent');
