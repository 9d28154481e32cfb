import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { canonicalTimeZone } from '@portal/core';
import type { FileStoreConfig } from './files/createFileStore';

export interface ServerConfig {
  port: number;
  /** Address to listen on (HOST): 127.0.0.1 by default, so a fresh start is not reachable from other machines. */
  host: string;
  /** DEMO_MODE=1 (scripts/start): the index of sites lists the demo sign-ins, to local visitors only. */
  demoMode: boolean;
  /** Directory for the embedded database, secrets, uploads and demo-users.json; null keeps PGlite in memory (tests). */
  dataDir: string | null;
  /** A PostgreSQL connection string; when absent the embedded PGlite database in dataDir is used. */
  databaseUrl: string | null;
  /**
   * A streaming standby of the DATABASE_URL server (DATABASE_READ_URL) that searches read from when it has the
   * caller's own changes; null: every read goes to DATABASE_URL.
   */
  databaseReadUrl: string | null;
  /** The read replica is not read from while it is further behind the primary than this (DATABASE_READ_MAX_LAG_MS, 5000). */
  replicaMaxLagMs: number;
  /** Where the built brand bundles live (dist/<brand>/index.html). */
  webDistDir: string;
  /** Base address of the sandbox providers (mail inbox, card form, bank linking, SMS). */
  sandboxUrl: string;
  /**
   * The public address of the brand sites, for the links the API e-mails (SITE_ADDRESS): an http(s) origin in which
   * {marker} stands for a brand's marker word, e.g. https://{marker}.portal.example.com. null: links name the
   * request's own <marker>.localhost host, or http://<marker>.localhost:<port> (a development machine).
   */
  siteAddress: string | null;
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
  /** Where uploaded and generated files live: FILE_STORE=local (DATA_DIR/files, the default) or s3 (S3_* settings). */
  fileStore: FileStoreConfig;
  /** Check every JSON answer against its endpoint's response schema (on outside production: a mismatch is a 500 and a log line). */
  checkResponses: boolean;
  /**
   * The reverse proxies or load balancers in front of the API (TRUST_PROXY: addresses and CIDR ranges, comma-separated).
   * A request from one of them is taken to come from the address it names in X-Forwarded-For (the per-address
   * limits, the audit trail); empty: X-Forwarded-For is ignored and the connection's address is the client's.
   */
  trustedProxies: string[];
  /**
   * The time zone of the business's days (BUSINESS_TIME_ZONE, an IANA name; America/Chicago by default): the day the
   * server's day rules go by (a coupon's last day, the day a bill is received) and a caller's zone when it names none.
   */
  businessTimeZone: string;
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

/** A database URL fit for a message or a log line: its password replaced by stars. */
export const hidePassword = (url: string) => url.replace(/:[^:@/]*@/, ':***@');

export function validateDatabaseUrl(url: string, setting = 'DATABASE_URL'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${setting} is not a valid URL: "${hidePassword(url)}"`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(`${setting} must start with postgres:// or postgresql://, got "${parsed.protocol}"`);
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) throw new ConfigError(`${setting} names no host`);
  return url;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** FILE_STORE and the S3_* settings; the local store is the folder files/ in the data directory. */
export function fileStoreConfig(env: NodeJS.ProcessEnv, dataDir: string): FileStoreConfig {
  const kind = env.FILE_STORE || 'local';
  if (kind === 'local') return { kind, dir: join(dataDir, 'files') };
  if (kind !== 's3') throw new ConfigError(`FILE_STORE must be local or s3, got "${kind}"`);
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new ConfigError('FILE_STORE=s3 needs S3_BUCKET');
  const endpoint = env.S3_ENDPOINT || null;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new ConfigError(`S3_ENDPOINT must be an http(s) address, got "${endpoint}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  return {
    kind,
    bucket,
    region: env.S3_REGION || 'us-east-1',
    endpoint,
    // S3-compatible services mostly want the bucket in the path; AWS wants it in the host name.
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
  };
}

/**
 * TRUST_PROXY: IPv4 or IPv6 addresses and CIDR ranges (`10.0.0.0/8`), or proxy-addr's names for the private ranges
 * (`loopback`, `linklocal`, `uniquelocal`), comma-separated. Trusting every address would let any client choose the
 * address the limits count, so there is no "true".
 */
export function trustedProxies(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    const [address = '', prefix, extra] = value.split('/');
    const family = isIP(address);
    const width = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= width);
    if (named.has(value) || (family !== 0 && prefixOk && extra === undefined)) return value;
    throw new ConfigError(
      `TRUST_PROXY takes the addresses or CIDR ranges of the proxies in front of the API (or loopback, linklocal, uniquelocal), comma-separated; "${value}" is none of them`,
    );
  });
}

/**
 * Whether `value` is an absolute http(s) address with a host: what a provider's address (SANDBOX_URL) and a webhook's
 * (billing's PAYMENT_WEBHOOK_URL) must be. `localhost:8090`, `ftp://…` and `http://` are not.
 */
export function isHttpAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && /^https?:\/\//i.test(value);
  } catch {
    return false;
  }
}

/**
 * A provider's address (SANDBOX_URL): an absolute http(s) address with a host, no trailing slash. Checked at start: an
 * empty value crashed the start with a bare "Invalid URL", one without a scheme made every provider call fail later.
 */
export function httpOrigin(name: string, raw: string): string {
  const value = raw.trim();
  if (!isHttpAddress(value)) throw new ConfigError(`${name} must be an http(s) address such as http://localhost:8090, got "${raw}"`);
  return value.replace(/\/+$/, '');
}

/**
 * SITE_ADDRESS: an http or https origin (no path, query or fragment) whose host name holds {marker} as a label of its
 * own, so the address of each brand's site is also a host the API tells that brand by. The trailing / is dropped.
 */
export function siteAddressTemplate(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  const value = raw.trim().replace(/\/$/, '');
  const refuse = (why: string) =>
    new ConfigError(
      `SITE_ADDRESS is the brand sites' public address with {marker} for the brand's marker word, e.g. https://{marker}.portal.example.com; "${value}" ${why}`,
    );
  let url: URL;
  try {
    url = new URL(value.replaceAll('{marker}', 'marker-word'));
  } catch {
    throw refuse('is not an address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('is not an http or https address');
  if (!url.hostname.split('.').includes('marker-word') || value.split('{marker}').length !== 2)
    throw refuse('needs {marker} once, as a whole label of its host name');
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    throw refuse('must be an origin: no path, query, fragment or credentials');
  return value;
}

/**
 * A brand site's address as configured: SITE_ADDRESS with the brand's marker word, else the site on this machine
 * (http://<marker>.localhost:<port>). Never from a request's Host header, which is the sender's word.
 */
export function brandSiteAddress(config: Pick<ServerConfig, 'port' | 'siteAddress'>, marker: string): string {
  return config.siteAddress ? config.siteAddress.replace('{marker}', marker) : `http://${marker}.localhost:${config.port}`;
}

/** BUSINESS_TIME_ZONE: an IANA time zone name the runtime knows. */
export function businessTimeZone(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return 'America/Chicago';
  const value = raw.trim();
  const zone = canonicalTimeZone(value);
  if (zone === null) throw new ConfigError(`BUSINESS_TIME_ZONE must be an IANA time zone such as America/Chicago, got "${value}"`);
  return zone;
}

/** DATABASE_READ_URL: a PostgreSQL URL as DATABASE_URL's, and never without one (the embedded database has no replicas). */
function databaseReadUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.DATABASE_READ_URL;
  if (!raw) return null;
  if (!env.DATABASE_URL) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replicas');
  return validateDatabaseUrl(raw, 'DATABASE_READ_URL');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const dataDir = resolve(cwd, env.DATA_DIR ?? '.data');
  mkdirSync(dataDir, { recursive: true });
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    demoMode: flag(env, 'DEMO_MODE', false),
    dataDir,
    databaseUrl: env.DATABASE_URL ? validateDatabaseUrl(env.DATABASE_URL) : null,
    databaseReadUrl: databaseReadUrl(env),
    replicaMaxLagMs: int(env, 'DATABASE_READ_MAX_LAG_MS', 5000),
    webDistDir: resolve(cwd, env.WEB_DIST_DIR ?? 'apps/web/dist'),
    sandboxUrl: httpOrigin('SANDBOX_URL', env.SANDBOX_URL ?? 'http://localhost:8090'),
    siteAddress: siteAddressTemplate(env.SITE_ADDRESS),
    smtpUrl: env.SMTP_URL || null,
    tokenSecret: env.TOKEN_SECRET ?? persistentSecret(dataDir),
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL', 900),
    idleTimeoutSeconds: int(env, 'IDLE_TIMEOUT', 30 * 60),
    absoluteSessionSeconds: int(env, 'SESSION_LIFETIME', 12 * 60 * 60),
    logLevel: env.LOG_LEVEL ?? 'info',
    tokenRequestsPerMinute: int(env, 'TOKEN_REQUESTS_PER_MINUTE', 60),
    fileStore: fileStoreConfig(env, dataDir),
    checkResponses: env.CHECK_RESPONSES ? env.CHECK_RESPONSES !== '0' : env.NODE_ENV !== 'production',
    trustedProxies: trustedProxies(env.TRUST_PROXY),
    businessTimeZone: businessTimeZone(env.BUSINESS_TIME_ZONE),
  };
}
