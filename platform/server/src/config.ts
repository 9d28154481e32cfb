import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface ServerConfig {
  port: number;
  host: string;
  /** Directory for the embedded database, secrets, uploads and demo-users.json; null keeps PGlite in memory (tests). */
  dataDir: string | null;
  /** A PostgreSQL connection string; when absent the embedded PGlite database in dataDir is used. */
  databaseUrl: string | null;
  /** Where the built brand bundles live (dist/<brand>/index.html). */
  webDistDir: string;
  /** Base address of the sandbox providers (mail inbox, card form, bank linking, SMS). */
  sandboxUrl: string;
  /** SMTP transport for mail when set, e.g. smtp://user:pass@host:587. */
  smtpUrl: string | null;
  /** HMAC key for access tokens and anti-forgery tokens. */
  tokenSecret: string;
  accessTokenTtlSeconds: number;
  idleTimeoutSeconds: number;
  absoluteSessionSeconds: number;
  logLevel: string;
  /** /token requests allowed per client address per minute (60). */
  tokenRequestsPerMinute: number;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** A secret kept in the data directory so tokens survive restarts without any set-up. */
function persistentSecret(dataDir: string): string {
  const file = join(dataDir, 'token-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function validateDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`DATABASE_URL is not a valid URL: "${url.replace(/:[^:@/]*@/, ':***@')}"`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, got "${parsed.protocol}"`);
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) throw new ConfigError('DATABASE_URL names no host');
  return url;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const dataDir = resolve(cwd, env.DATA_DIR ?? '.data');
  mkdirSync(dataDir, { recursive: true });
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL ? validateDatabaseUrl(env.DATABASE_URL) : null,
    webDistDir: resolve(cwd, env.WEB_DIST_DIR ?? 'apps/web/dist'),
    sandboxUrl: (env.SANDBOX_URL ?? 'http://localhost:8090').replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || null,
    tokenSecret: env.TOKEN_SECRET ?? persistentSecret(dataDir),
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL', 900),
    idleTimeoutSeconds: int(env, 'IDLE_TIMEOUT', 30 * 60),
    absoluteSessionSeconds: int(env, 'SESSION_LIFETIME', 12 * 60 * 60),
    logLevel: env.LOG_LEVEL ?? 'info',
    tokenRequestsPerMinute: int(env, 'TOKEN_REQUESTS_PER_MINUTE', 60),
  };
}
