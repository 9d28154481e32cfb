import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, posix, sep } from 'node:path';
import type { Message } from '@portal/core';
import { type BrandManifest, PRERENDERED_PAGES, prerenderedFile, requestLanguage } from '@portal/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import type { ServerConfig } from '../config';
import { AssetCache, type AssetRead } from './asset-cache';
import { allowFormActions, allowFrameSources, allowInlineStyle } from './security';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
  '.map': 'application/json',
};
const API_PREFIXES = ['/api/', '/token', '/config', '/health'];
/** A file's name at the site's root (a name with an extension): never a page's address. */
const ROOT_FILE = /^\/[^/]+\.[a-z0-9]+$/i;

/** The precompressed copies the build writes beside a text file (apps/web/build.ts), the smaller first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Whether an Accept-Encoding header takes this content coding: named, and not refused with q=0 (RFC 9110 12.5.3). */
function acceptsEncoding(header: string, coding: string): boolean {
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name?.trim() !== coding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const INDEX_CSS = `body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1d2433}
table{border-collapse:collapse}td,th{border:1px solid #d7dbe3;padding:.3rem .6rem;text-align:left}`;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const LOOPBACK_PEER = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether the demo sign-ins may be shown: only in demo mode (DEMO_MODE=1, set by scripts/start), only to a
 * request for localhost or 127.0.0.1 (any port), and only from this machine. The Host header alone is the
 * sender's word, so the connection's own address must be loopback too.
 */
export function showsDemoLogins(config: Pick<ServerConfig, 'demoMode'>, req: Pick<FastifyRequest, 'headers' | 'ip'>): boolean {
  if (!config.demoMode) return false;
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  return LOCAL_HOSTS.has(host) && LOOPBACK_PEER.test(req.ip);
}

interface SiteOptions {
  config: ServerConfig;
  brands: readonly BrandManifest[];
  brandOf: (req: FastifyRequest) => BrandManifest | null;
  demoUsers?: () => Promise<{ brand: string; role: string; userName: string; password: string }[]>;
  /** Plugin pages that frame a provider's origins (ServerPluginDef.framePages). */
  framePages?: readonly { plugin: string; paths: readonly string[]; origins: readonly string[] }[];
  /** A message in the request's user's language. */
  tr: (req: FastifyRequest, message: Message) => string;
}

/**
 * Answers a Range request for an immutable asset (RFC 9110 section 14): one satisfiable range is 206 with its bytes and
 * Content-Range; several are answered as their one covering range (no multipart: players ask for one); none
 * satisfiable is 416 with the size; a header that does not parse is ignored (the whole file, 200), as the RFC allows.
 * Video players seek this way (Chromium treats a video served without ranges as unseekable; Safari will not play it).
 */
function sendRange(reply: FastifyReply, file: string, found: Exclude<AssetRead, { kind: 'missing' }>, header: string) {
  const size = found.kind === 'bytes' ? found.body.length : statSync(file).size;
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  reply.header('cache-control', IMMUTABLE).header('accept-ranges', 'bytes').header('vary', 'accept-encoding');
  const parsed = parseRange(size, header, { combine: true });
  if (parsed === -1) return reply.status(416).header('content-range', `bytes */${size}`).type('text/plain').send('Range Not Satisfiable');
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length === 0) {
    return reply.type(type).send(found.kind === 'bytes' ? found.body : createReadStream(file));
  }
  const start = Math.min(...parsed.map((r) => r.start));
  const end = Math.max(...parsed.map((r) => r.end));
  reply
    .status(206)
    .header('content-range', `bytes ${start}-${end}/${size}`)
    .header('content-length', String(end - start + 1));
  return reply.type(type).send(found.kind === 'bytes' ? found.body.subarray(start, end + 1) : createReadStream(file, { start, end }));
}

/** A site's HTML document as the build wrote it, and its precompressed copies by content coding. */
interface HtmlDocument {
  body: Buffer;
  copies: ReadonlyMap<string, Buffer>;
}

/**
 * Serves each brand's bundle by host on one port; hosts of no brand get the index of brand sites.
 * Hashed assets are immutable and held in memory once read; index.html is revalidated; the precompressed .br and
 * .gz copies are used when accepted (the HTML documents' too, held in memory with their document).
 */
export function registerSites(app: FastifyInstance, opts: SiteOptions) {
  const indexCache = new Map<string, HtmlDocument>();
  const assets = new AssetCache();

  app.get('/*', async (req, reply) => {
    const path = decodeURIComponent(req.url.split('?')[0] ?? '/');
    if (API_PREFIXES.some((p) => path.startsWith(p))) {
      return reply.status(404).send({ Data: null, Unwrap: true, MsgText: opts.tr(req, 'Not found.'), HasError: true });
    }
    const brand = opts.brandOf(req);
    if (!brand) {
      allowInlineStyle(reply, INDEX_CSS);
      return reply.type('text/html; charset=utf-8').send(await brandIndex(req));
    }

    const root = join(opts.config.webDistDir, brand.id);
    const file = normalize(join(root, path));
    const inside = file.startsWith(root + sep);
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const codings = PRECOMPRESSED.filter((c) => acceptsEncoding(accepted, c.encoding));
    const send = (cacheControl: string, body: Buffer | ReturnType<typeof createReadStream>, encoding: string | null) => {
      reply.header('cache-control', cacheControl);
      reply.header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.type(TYPES[extname(file)] ?? 'application/octet-stream').send(body);
    };
    // Hashed, immutable build output (the file itself inside assets/, whatever the path said): from memory after the
    // first request (AssetCache). A client taking brotli or gzip is answered from that copy alone (brotli first, the
    // smaller), so only what is sent is held.
    if (file.startsWith(join(root, 'assets') + sep)) {
      // A part of the file (a video's player seeking): the file's own bytes, never a compressed copy (a range counts them).
      const range = req.headers.range;
      if (range) {
        const whole = await assets.read(file);
        if (whole.kind !== 'missing') return sendRange(reply, file, whole, range);
      }
      for (const c of codings) {
        const copy = await assets.read(`${file}${c.suffix}`);
        if (copy.kind !== 'missing') return send(IMMUTABLE, copy.kind === 'bytes' ? copy.body : createReadStream(`${file}${c.suffix}`), c.encoding);
      }
      const found = await assets.read(file);
      if (found.kind !== 'missing') {
        // Parts may be asked for (the bytes as stored; a compressed answer's bytes are another representation's).
        reply.header('accept-ranges', 'bytes');
        return send(IMMUTABLE, found.kind === 'bytes' ? found.body : createReadStream(file), null);
      }
    } else if (inside && existsSync(file) && statSync(file).isFile()) {
      const c = codings.find((c) => existsSync(`${file}${c.suffix}`));
      return send('no-cache', createReadStream(c ? `${file}${c.suffix}` : file), c?.encoding ?? null);
    }
    // A file the site does not have is not found: under assets/, or at the root (/favicon.ico, /robots.txt: a browser's
    // or a crawler's guess), which no page's address looks like; the app in its place would be HTML it cannot use. A
    // deeper address may hold a dot (a handed-over token, /activated/<a.b.c>): the app's.
    if ((extname(path) && path.startsWith('/assets/')) || ROOT_FILE.test(posix.normalize(path))) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    // Client-side route: the single-page app's index; for a prerendered page (the sign-in page), the index with that
    // page's markup in the language this browser will start in (its remembered choice, else its preferred language).
    const page = Object.hasOwn(PRERENDERED_PAGES, path) ? PRERENDERED_PAGES[path] : undefined;
    const htmlFile = page ? prerenderedFile(page, requestLanguage(req.headers)) : 'index.html';
    const key = `${brand.id}/${htmlFile}`;
    let html = indexCache.get(key);
    if (!html) {
      const found = [htmlFile, 'index.html'].map((f) => join(root, f)).find((f) => existsSync(f));
      if (!found) {
        // english-only: for whoever runs the server, who has not built the sites
        return reply.status(503).type('text/plain').send(`The ${brand.displayName} site has not been built yet: run pnpm build.`);
      }
      const copies = new Map(PRECOMPRESSED.filter((c) => existsSync(`${found}${c.suffix}`)).map((c) => [c.encoding, readFileSync(`${found}${c.suffix}`)]));
      html = { body: readFileSync(found), copies };
      indexCache.set(key, html);
    }
    reply.header('vary', page ? 'cookie, accept-language, accept-encoding' : 'accept-encoding');
    const coding = codings.find((c) => html.copies.has(c.encoding));
    if (coding) reply.header('content-encoding', coding.encoding);
    const lower = path.toLowerCase();
    const frames = (opts.framePages ?? []).filter(
      (f) => brand.plugins.includes(f.plugin) && f.paths.some((p) => lower === p.toLowerCase() || lower.startsWith(`${p.toLowerCase()}/`)),
    );
    if (frames.length) {
      // The provider's page is framed, and opened by a POST of its token into the frame (not a token in an address).
      const origins = frames.flatMap((f) => f.origins);
      allowFrameSources(reply, origins);
      allowFormActions(reply, origins);
    }
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(coding ? html.copies.get(coding.encoding) : html.body);
  });

  async function brandIndex(req: FastifyRequest): Promise<string> {
    const port = (req.headers.host ?? '').match(/:(\d+)$/)?.[1];
    const suffix = port ? `:${port}` : '';
    const demo = showsDemoLogins(opts.config, req);
    const users = demo && opts.demoUsers ? await opts.demoUsers().catch(() => []) : [];
    const sites = opts.brands
      .map((b) => `<li><a href="http://${b.marker}.localhost${suffix}/">${escapeHtml(b.displayName)}</a> <code>${b.marker}.localhost${suffix}</code></li>`)
      .join('');
    const rows = users
      .map(
        (u) =>
          `<tr><td>${escapeHtml(u.brand)}</td><td>${escapeHtml(u.role)}</td><td><code>${escapeHtml(u.userName)}</code></td><td><code>${escapeHtml(u.password)}</code></td></tr>`,
      )
      .join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal sites</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${INDEX_CSS}</style></head>
<body><h1>Portal sites</h1><ul>${sites}</ul>
${demo ? `<h2>Demo sign-ins</h2>${rows ? `<table><thead><tr><th>Brand</th><th>Role</th><th>User name</th><th>Password</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No demo users yet: run scripts/seed.</p>'}` : ''}
</body></html>`;
  }
}
