import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Claims carried by a signed access token (a compact HS256 JWT). */
export interface AccessClaims {
  sub: string;
  sid: string;
  name: string;
  roles: string[];
  mid: number | null;
  /** The brand site the session signed in on (null: a host of no brand); the token works only there. */
  brd: string | null;
  iat: number;
  exp: number;
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signAccessToken(claims: AccessClaims, secret: string): string {
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

export function verifyAccessToken(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2] ?? '', 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  let claims: AccessClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8')) as AccessClaims;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const sha256 = (v: string) => createHash('sha256').update(v).digest('base64url');

/** The anti-forgery token of a session: derived, so it needs no storage and survives token refresh. */
export function formTokenFor(sessionId: string, secret: string): string {
  return createHmac('sha256', secret).update(`form:${sessionId}`).digest('base64url');
}

export function formTokenMatches(given: string | undefined, sessionId: string, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(formTokenFor(sessionId, secret));
  return a.length === b.length && timingSafeEqual(a, b);
}
