import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';

/**
 * Paths whose next segment is a secret: reset and activation link ids (each resets a password or activates an
 * account), and the access tokens handed over in /activated/<token> and /t/<token>. Plugins adding such links
 * add their prefix here. Each prefix must start at the beginning of a path: after the start of the text,
 * white space, a quote, ':', '=', '(' or a scheme and host ("http://host:8080").
 */
export const SECRET_PATH_PREFIXES: string[] = [
  '/login/reset/',
  '/login/activate/',
  '/api/account/reset/validate/',
  '/api/account/activate/',
  '/login/confirm-email/',
  '/activated/',
  '/t/',
];

export const REDACTED = '[redacted]';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
let secretPaths: { source: string; re: RegExp } | null = null;
function secretPathPattern(): RegExp {
  const source = SECRET_PATH_PREFIXES.map(escapeRegExp).join('|');
  if (secretPaths?.source !== source) {
    // The secret runs to the next '/', '?', '#', white space, quote, backslash (JSON escapes) or angle bracket.
    secretPaths = { source, re: new RegExp(`(?<=^|[\\s"'(:=]|[a-z][a-z0-9+.-]*://[^/\\s"']+)(${source})[^/?#\\s"'\\\\<>]+`, 'gi') };
  }
  secretPaths.re.lastIndex = 0;
  return secretPaths.re;
}

/** The text with every secret path segment (SECRET_PATH_PREFIXES) replaced by [redacted]. */
export function redactSecrets(text: string): string {
  return text.replace(secretPathPattern(), `$1${REDACTED}`);
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remotePort?: number };
  /** Fastify's request: the pattern of the route it matched ('/api/claims/searchVendors/:text'). */
  routeOptions?: { url?: string };
}

/**
 * A request's address as the log keeps it: what a search or filter carries (a member's name typed into support's
 * search, a bill search's words, a procedure looked up) is personal or health data, and the log line's request id
 * ties it to the member in the audit. So the query string keeps its parameter names only ('?name&page'), and a path
 * parameter of the matched route keeps its value only when it is a number (an id: '/api/claims/42'), its name
 * otherwise ('/api/claims/searchVendors/:text'). Secret path segments are redacted as everywhere (redactSecrets).
 */
export function loggedUrl(req: RequestLike): string | undefined {
  if (req.url === undefined) return undefined;
  const q = req.url.indexOf('?');
  let path = q === -1 ? req.url : req.url.slice(0, q);
  const pattern = req.routeOptions?.url;
  if (pattern?.includes(':')) {
    const want = pattern.split('/');
    const got = path.split('/');
    path = want.length === got.length ? want.map((w, i) => (w.startsWith(':') && !/^\d+$/.test(got[i] ?? '') ? w : (got[i] ?? w))).join('/') : pattern;
  }
  const names = q === -1 ? [] : [...new Set([...new URLSearchParams(req.url.slice(q + 1)).keys()])];
  return redactSecrets(names.length ? `${path}?${names.join('&')}` : path);
}

/** Fields of a database error that carry the statement's values (PGlite's params, pg's "Failing row contains (...)"). */
const ERROR_VALUE_FIELDS = new Set(['params', 'parameters', 'queryOptions', 'detail']);

/**
 * An error as the log keeps it: its type, message, stack and own fields (code, status, constraint ...) and its
 * causes, but never the values a failing statement was given (ERROR_VALUE_FIELDS): an unforeseen database error in a
 * profile save would otherwise write the member's name, e-mail, date of birth and phone to the log.
 */
export function loggedError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 8) return err;
  const out: Record<string, unknown> = { type: err.constructor?.name ?? err.name, message: err.message, stack: err.stack };
  for (const [k, v] of Object.entries(err)) if (k !== 'cause' && !ERROR_VALUE_FIELDS.has(k)) out[k] = v;
  if (err.cause !== undefined) out.cause = loggedError(err.cause, depth + 1);
  if (err instanceof AggregateError) out.errors = err.errors.map((e) => loggedError(e, depth + 1));
  return out;
}

/**
 * Logger options that keep link ids, handed-over tokens, search words and a failing statement's values out of every
 * log line: the request serializer logs the URL as loggedUrl keeps it, the error serializer as loggedError does, and a last hook on each finished line catches a URL anywhere else (a "Route ... not
 * found" message, an error's message or stack). Applied to whatever options the app is given.
 */
export function redactingLogger(logger: boolean | object, level: string): false | object {
  if (logger === false) return false;
  const base = (logger === true ? { level } : logger) as {
    serializers?: Record<string, (v: never) => unknown>;
    hooks?: { streamWrite?: (s: string) => string };
  };
  const write = base.hooks?.streamWrite;
  return {
    ...base,
    serializers: {
      ...base.serializers,
      err: (err: unknown) => loggedError(err),
      req: (req: RequestLike) => ({
        method: req.method,
        url: loggedUrl(req),
        version: req.headers?.['accept-version'],
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    hooks: { ...base.hooks, streamWrite: (line: string) => redactSecrets(write ? write(line) : line) },
  };
}

/** Answers of the API: never stored by a browser or a shared cache (they carry member data and tokens). */
export function isApiPath(url: string): boolean {
  if (url.startsWith('/api/')) return true;
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  return path === '/token' || path === '/config' || path === '/health';
}

/**
 * The one inline style element a library of the brand sites writes, which cannot be turned off or given a file:
 * react-aria's usePress puts this rule in a `<style>` at the top of the head on the first pressable element, so touch
 * devices pan and pinch on a button without the double-tap-to-zoom wait (react-aria/…/interactions/usePress). The
 * page policy allows exactly this text by hash; `tests/csp-library-styles.test.ts` checks it against the installed
 * react-aria, so an upgrade that changes the text fails there rather than in a member's console.
 */
export const REACT_ARIA_PRESSABLE_STYLE = '@layer {\n  [data-react-aria-pressable] {\n    touch-action: pan-x pan-y pinch-zoom;\n  }\n}';

/** The CSP source that allows one inline `<style>` element of exactly this text. */
export const styleHashSource = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of every answer, the brand sites' included. Scripts only from the site itself
 * (tokens live in sessionStorage, so an injected script would take the session); no framing of the portal and
 * no frames in it unless a page widens frame-src with allowFrameSources(). Style attributes are allowed: React
 * sets its style props through the CSSOM, which the policy does not govern, but a library writing the
 * attribute itself would break, and a style attribute can neither run script nor read the page.
 * <style> elements and style sheets stay limited to the site's own files, and react-aria's one fixed rule above.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'frame-src': ["'none'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", styleHashSource(REACT_ARIA_PRESSABLE_STYLE)],
  'style-src-attr': ["'unsafe-inline'"],
  'worker-src': ["'none'"],
};

/** Renders directives as a Content-Security-Policy header value. */
export function renderCsp(directives: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

function parseCsp(header: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name.toLowerCase()] = values;
  }
  return out;
}

function currentCsp(reply: FastifyReply): Record<string, string[]> {
  const header = reply.getHeader('content-security-policy');
  return typeof header === 'string' ? parseCsp(header) : Object.fromEntries(Object.entries(CSP_DIRECTIVES).map(([k, v]) => [k, [...v]]));
}

function setDirective(reply: FastifyReply, name: string, values: string[]): void {
  const csp = currentCsp(reply);
  csp[name] = values;
  reply.header('content-security-policy', renderCsp(csp));
}

/** The origins as a policy names them; throws on anything but an http(s) origin (a path or a wildcard). */
function httpOrigins(caller: string, origins: readonly string[]): string[] {
  return origins.map((o) => {
    const u = new URL(o);
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== o.replace(/\/$/, '')) {
      throw new Error(`${caller} takes origins such as https://pay.example.com, got "${o}"`);
    }
    return u.origin;
  });
}

/**
 * Lets this answer's page frame the given provider origins (a hosted card form, bank linking), and only
 * those: frame-src becomes exactly the union of the origins allowed so far. Call it on the answer that
 * serves the page. Throws on anything but an http(s) origin, so a path or a wildcard cannot slip in.
 */
export function allowFrameSources(reply: FastifyReply, origins: readonly string[]): void {
  const checked = httpOrigins('allowFrameSources', origins);
  const now = (currentCsp(reply)['frame-src'] ?? []).filter((v) => v !== "'none'");
  const merged = [...new Set([...now, ...checked])];
  setDirective(reply, 'frame-src', merged.length ? merged : ["'none'"]);
}

/**
 * Lets this answer's page post forms to the given provider origins (a hosted card form is opened by a POST of its
 * token into its frame), besides its own: form-action becomes 'self' and the union of the origins allowed so far.
 * Same checks as allowFrameSources.
 */
export function allowFormActions(reply: FastifyReply, origins: readonly string[]): void {
  const checked = httpOrigins('allowFormActions', origins);
  const now = currentCsp(reply)['form-action'] ?? ["'self'"];
  setDirective(reply, 'form-action', [...new Set([...now, ...checked])]);
}

/** Allows one inline <style> element on this answer's page, by the hash of its exact text. */
export function allowInlineStyle(reply: FastifyReply, css: string): void {
  const hash = styleHashSource(css);
  const now = currentCsp(reply)['style-src'] ?? ["'self'"];
  setDirective(reply, 'style-src', [...new Set([...now, hash])]);
}

/** What an API answer needs (OWASP REST Security): nothing in it may load or frame anything. */
export const API_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
};

type HelmetOptions = NonNullable<Parameters<typeof helmet>[0]>;

/**
 * helmet's headers for the given options, worked out once: helmet's own middleware run against a recorder.
 * (@fastify/helmet rebuilt helmet's middleware and re-parsed the policy on every request: a sixth of /health.)
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

const policy = (directives: Readonly<Record<string, readonly string[]>>) => ({
  useDefaults: false,
  directives: Object.fromEntries(Object.entries(directives).map(([k, v]) => [k, [...v]])),
});

/** The headers of every page and file of the brand sites: helmet's defaults with the CSP above. */
export const pageSecurityHeaders = (): Record<string, string> =>
  helmetHeaders({ contentSecurityPolicy: policy(CSP_DIRECTIVES), referrerPolicy: { policy: 'no-referrer' }, frameguard: { action: 'deny' } });

/**
 * The headers of every API answer (OWASP's list for REST answers): a CSP that allows nothing, nosniff, DENY framing,
 * no referrer, same-origin resource policy, HSTS and Cache-Control: no-store. The headers that only mean something
 * to a page (opener policy, origin-agent cluster, DNS prefetch, download options, Flash policies, the XSS auditor)
 * are left off JSON answers.
 */
export const apiSecurityHeaders = (): Record<string, string> => ({
  ...helmetHeaders({
    contentSecurityPolicy: policy(API_CSP_DIRECTIVES),
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
  'cache-control': 'no-store',
});

/**
 * Security headers on every answer: pageSecurityHeaders on the brand sites, apiSecurityHeaders on the API; each
 * answer also carries its request id. One synchronous hook, with the header sets worked out at start-up.
 */
export function registerResponseHeaders(app: FastifyInstance, requestIdHeader: string): void {
  const page = pageSecurityHeaders();
  const api = apiSecurityHeaders();
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiPath(req.url) ? api : page);
    reply.header(requestIdHeader, req.id);
    done();
  });
}
