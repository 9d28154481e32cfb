import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { escapeHtml, linkify, PAGE_CSP, page, scrollFrame } from './html';
import { idempotencyKeyOf, storeOnce } from './idempotency';
import { issuesText } from './service';

/** A message as the sandbox inbox API returns it. */
export interface SandboxMail {
  id: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  brand: string | null;
  receivedAt: string;
}

/** What SandboxMailTransport posts (platform/server/src/providers/mail.ts MailMessage). */
export const incomingMailSchema = z.object({
  from: z.string().trim().min(1, 'from is required').max(320),
  to: z.email('to must be an e-mail address').max(320),
  subject: z.string().max(998),
  text: z.string().max(1_000_000),
  html: z.string().max(2_000_000).optional(),
  brand: z.string().trim().min(1).max(64).optional(),
});

const listQuery = z.object({
  to: z.string().trim().min(1).max(320).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

interface Row {
  id: number;
  from_addr: string;
  to_addr: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  brand: string | null;
  received_at: Date;
}
const toMail = (r: Row): SandboxMail => ({
  id: r.id,
  from: r.from_addr,
  to: r.to_addr,
  subject: r.subject,
  text: r.text_body,
  html: r.html_body,
  brand: r.brand,
  receivedAt: new Date(r.received_at).toISOString(),
});

/**
 * A message's HTML part is shown as a mail reader shows it: in a frame of its own that runs no script and cannot reach
 * the inbox (sandboxed, without allow-same-origin), under the inbox page's policy (a srcdoc frame inherits it: no
 * script, nothing loaded from elsewhere). A link the reader clicks opens in the whole tab, as it leaves a mail reader.
 */
const HTML_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';
const linksToTop = (html: string) => {
  const base = '<base target="_top">';
  const head = /<head(?:\s[^>]*)?>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length) : base + html;
};

// The inbox pages run no script and load nothing from elsewhere.

export function registerMail(app: FastifyInstance, db: PGlite) {
  const list = async (to: string | undefined, limit: number) =>
    (
      await db.query<Row>(
        to
          ? 'SELECT * FROM mail_messages WHERE lower(to_addr) = lower($1) ORDER BY id DESC LIMIT $2'
          : 'SELECT * FROM mail_messages WHERE $1::text IS NULL ORDER BY id DESC LIMIT $2',
        [to ?? null, limit],
      )
    ).rows.map(toMail);
  const one = async (id: number) => {
    const r = (await db.query<Row>('SELECT * FROM mail_messages WHERE id = $1', [id])).rows[0];
    return r ? toMail(r) : null;
  };

  /**
   * Stores a message: 201 with it. With an Idempotency-Key, once per key: the key again with the same message answers
   * the first one (200, Idempotent-Replayed: true) and stores nothing; with another message, 409. Requests racing
   * with one key store one row (the unique index, ON CONFLICT DO NOTHING).
   */
  app.post('/mail/api/messages', async (req, reply) => {
    const idem = idempotencyKeyOf(req.headers['idempotency-key']);
    if ('error' in idem) return reply.status(400).send({ error: idem.error });
    const parsed = incomingMailSchema.safeParse(req.body ?? undefined);
    if (!parsed.success) return reply.status(400).send({ error: `Invalid message: ${issuesText(parsed.error)}` });
    const m = parsed.data;
    return storeOnce(req, reply, {
      db,
      table: 'mail_messages',
      key: idem.key,
      message: m,
      insert: async (key, hash) =>
        (
          await db.query<Row>(
            `INSERT INTO mail_messages (from_addr, to_addr, subject, text_body, html_body, brand, idempotency_key, request_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
            [m.from, m.to, m.subject, m.text, m.html ?? null, m.brand ?? null, key, hash],
          )
        ).rows[0],
      present: toMail,
      what: 'mail',
    });
  });

  app.get('/mail/api/messages', async (req, reply) => {
    const q = listQuery.safeParse(req.query ?? {});
    if (!q.success) return reply.status(400).send({ error: `Invalid query: ${issuesText(q.error)}` });
    return list(q.data.to, q.data.limit);
  });

  app.get('/mail/api/messages/:id', async (req, reply) => {
    const p = idParams.safeParse(req.params);
    if (!p.success) return reply.status(400).send({ error: 'The message id must be a positive whole number.' });
    const m = await one(p.data.id);
    if (!m) return reply.status(404).send({ error: `No message ${p.data.id}.` });
    return m;
  });

  app.get('/mail', async (req, reply) => {
    const q = listQuery.safeParse(req.query ?? {});
    const to = q.success ? q.data.to : undefined;
    const mails = await list(to, q.success ? q.data.limit : 50);
    const rows = mails
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.to)}</td><td><a href="/mail/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td>` +
          `<td><time datetime="${m.receivedAt}">${escapeHtml(m.receivedAt.replace('T', ' ').slice(0, 19))} UTC</time></td>` +
          `<td>${m.brand ? `<span class="brand">${escapeHtml(m.brand)}</span>` : ''}</td></tr>`,
      )
      .join('');
    const filter = `<form method="get" action="/mail"><label>To <input name="to" type="search" value="${escapeHtml(to ?? '')}"></label> <button>Filter</button>${to ? ' <a href="/mail">all mail</a>' : ''}</form>`;
    const table = rows
      ? scrollFrame(`<table><thead><tr><th>To</th><th>Subject</th><th>Received</th><th>Brand</th></tr></thead><tbody>${rows}</tbody></table>`)
      : '<p>No mail yet.</p>';
    return reply
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page('Sandbox inbox', `<h1>Sandbox inbox</h1>${filter}${table}`));
  });

  app.get('/mail/:id', async (req, reply) => {
    const p = idParams.safeParse(req.params);
    const m = p.success ? await one(p.data.id) : null;
    const send = (status: number, html: string) =>
      reply.status(status).header('content-security-policy', PAGE_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
    if (!m) return send(404, page('Message not found', '<h1>Message not found</h1><p><a href="/mail">Back to the inbox</a></p>'));
    const body =
      `<p><a href="/mail">&larr; Inbox</a></p><h1>${escapeHtml(m.subject || '(no subject)')}</h1>` +
      `<dl><dt>From</dt><dd>${escapeHtml(m.from)}</dd><dt>To</dt><dd>${escapeHtml(m.to)}</dd>` +
      `<dt>Received</dt><dd>${escapeHtml(m.receivedAt)}</dd>${m.brand ? `<dt>Brand</dt><dd>${escapeHtml(m.brand)}</dd>` : ''}</dl>` +
      (m.html
        ? `<iframe class="mail-html" title="The message" sandbox="${HTML_SANDBOX}" srcdoc="${escapeHtml(linksToTop(m.html))}"></iframe>` +
          `<details><summary>Plain-text part</summary><pre class="mail-text">${linkify(m.text)}</pre></details>`
        : `<pre class="mail-text">${linkify(m.text)}</pre>`);
    return send(200, page(m.subject || 'Message', body));
  });
}
