import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { escapeHtml, PAGE_CSP, page, scrollFrame } from './html';
import { idempotencyKeyOf, storeOnce } from './idempotency';
import { issuesText } from './service';

/** A text message as the sandbox SMS inbox API returns it. */
export interface SandboxSms {
  id: number;
  to: string;
  text: string;
  brand: string | null;
  receivedAt: string;
}

/** What a carrier lookup answers (platform/server/src/providers/sms.ts PhoneLookup). */
export interface SandboxPhoneLookup {
  phoneNumber: string | null;
  lineType: 'mobile' | 'landline' | 'voip' | null;
  carrier: string | null;
}

const E164_US = /^\+1\d{10}$/;

/** What SandboxSmsTransport posts (platform/server/src/providers/sms.ts SmsMessage). */
export const incomingSmsSchema = z.object({
  to: z.string().trim().regex(E164_US, 'to must be +1 followed by 10 digits'),
  text: z.string().min(1, 'text is required').max(1600),
  brand: z.string().trim().min(1).max(64).optional(),
});

/**
 * The sandbox's carrier lookup, with fixed test numbers (the ten digits after +1):
 * - invalid (no PhoneNumber, 404): an area code or exchange starting with 0 or 1, or a line number 0000;
 * - landline: a line number from 9900 to 9999, e.g. (212) 555-9901;
 * - every other number is a mobile.
 */
export function carrierLookup(number: string): SandboxPhoneLookup {
  const none: SandboxPhoneLookup = { phoneNumber: null, lineType: null, carrier: null };
  if (!E164_US.test(number)) return none;
  const digits = number.slice(2);
  const area = digits.slice(0, 3);
  const exchange = digits.slice(3, 6);
  const line = digits.slice(6);
  if (/^[01]/.test(area) || /^[01]/.test(exchange) || line === '0000') return none;
  if (line.startsWith('99')) return { phoneNumber: number, lineType: 'landline', carrier: 'Sandbox Telephone Co.' };
  return { phoneNumber: number, lineType: 'mobile', carrier: 'Sandbox Wireless' };
}

const listQuery = z.object({
  to: z.string().trim().min(1).max(32).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
const lookupQuery = z.object({ number: z.string().trim().min(1).max(32) });

interface Row {
  id: number;
  to_number: string;
  text_body: string;
  brand: string | null;
  received_at: Date;
}
const toSms = (r: Row): SandboxSms => ({ id: r.id, to: r.to_number, text: r.text_body, brand: r.brand, receivedAt: new Date(r.received_at).toISOString() });
/** A number as typed in the filter: digits with or without +1. */
const normalizeNumber = (v: string) => {
  const d = v.replace(/\D/g, '');
  return d.length === 10 ? `+1${d}` : d.length === 11 && d.startsWith('1') ? `+${d}` : v.trim();
};

export function registerSms(app: FastifyInstance, db: PGlite) {
  const list = async (to: string | undefined, limit: number) =>
    (
      await db.query<Row>(
        to
          ? 'SELECT * FROM sms_messages WHERE to_number = $1 ORDER BY id DESC LIMIT $2'
          : 'SELECT * FROM sms_messages WHERE $1::text IS NULL ORDER BY id DESC LIMIT $2',
        [to ? normalizeNumber(to) : null, limit],
      )
    ).rows.map(toSms);

  /** Stores a text message once per Idempotency-Key, as the mail API does (200 with the first, 409 for another message). */
  app.post('/sms/api/messages', async (req, reply) => {
    const idem = idempotencyKeyOf(req.headers['idempotency-key']);
    if ('error' in idem) return reply.status(400).send({ error: idem.error });
    const parsed = incomingSmsSchema.safeParse(req.body ?? undefined);
    if (!parsed.success) return reply.status(400).send({ error: `Invalid message: ${issuesText(parsed.error)}` });
    const m = parsed.data;
    if (carrierLookup(m.to).lineType !== 'mobile') return reply.status(422).send({ error: `${m.to} cannot receive text messages.` });
    return storeOnce(req, reply, {
      db,
      table: 'sms_messages',
      key: idem.key,
      message: m,
      insert: async (key, hash) =>
        (
          await db.query<Row>(
            `INSERT INTO sms_messages (to_number, text_body, brand, idempotency_key, request_hash) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`,
            [m.to, m.text, m.brand ?? null, key, hash],
          )
        ).rows[0],
      present: toSms,
      what: 'sms',
    });
  });

  app.get('/sms/api/messages', async (req, reply) => {
    const q = listQuery.safeParse(req.query ?? {});
    if (!q.success) return reply.status(400).send({ error: `Invalid query: ${issuesText(q.error)}` });
    return list(q.data.to, q.data.limit);
  });

  app.get('/sms/api/lookup', async (req, reply) => {
    const q = lookupQuery.safeParse(req.query ?? {});
    if (!q.success) return reply.status(400).send({ error: `Invalid query: ${issuesText(q.error)}` });
    const found = carrierLookup(q.data.number);
    if (!found.phoneNumber) return reply.status(404).send({ ...found, error: `${q.data.number} is not a valid number.` });
    return found;
  });

  app.get('/sms', async (req, reply) => {
    const q = listQuery.safeParse(req.query ?? {});
    const to = q.success ? q.data.to : undefined;
    const messages = await list(to, q.success ? q.data.limit : 50);
    const rows = messages
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.to)}</td><td class="sms-text">${escapeHtml(m.text)}</td>` +
          `<td><time datetime="${m.receivedAt}">${escapeHtml(m.receivedAt.replace('T', ' ').slice(0, 19))} UTC</time></td>` +
          `<td>${m.brand ? `<span class="brand">${escapeHtml(m.brand)}</span>` : ''}</td></tr>`,
      )
      .join('');
    const filter = `<form method="get" action="/sms"><label>To <input name="to" type="search" value="${escapeHtml(to ?? '')}"></label> <button>Filter</button>${to ? ' <a href="/sms">all messages</a>' : ''}</form>`;
    const table = rows
      ? scrollFrame(`<table><thead><tr><th>To</th><th>Message</th><th>Received</th><th>Brand</th></tr></thead><tbody>${rows}</tbody></table>`)
      : '<p>No text messages yet.</p>';
    const help =
      '<p>Carrier lookup test numbers: an area code or exchange starting with 0 or 1, or a line number 0000, is invalid; ' +
      'line numbers 9900 to 9999 are landlines; every other number is a mobile.</p>';
    return reply
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page('Sandbox SMS inbox', `<p><a href="/mail">Mail inbox</a></p><h1>Sandbox SMS inbox</h1>${filter}${table}${help}`));
  });
}
