import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { escapeHtml, PAGE_CSP, page, scrollFrame } from './html';
import { basicCredentials } from './service';

/** The merchant's decision on a held transaction, as the gateway's API makes it (webhooks included). */
type Decide = (id: number, action: 'approve' | 'decline') => Promise<{ status: number; error?: string }>;
/** A void (unsettled) or a refund of what is left (settled) of a charge, as the gateway's API makes it (webhooks included). */
type Reverse = (id: number, type: 'void' | 'refund') => Promise<{ status: number; error?: string }>;

/** The sandbox pages' policy, and no framing: a decision is a click on this page itself. */
const MERCHANT_CSP = `${PAGE_CSP}; frame-ancestors 'none'`;
const decisionParams = z.object({ id: z.coerce.number().int().positive(), action: z.enum(['approve', 'decline']) });
const reversalParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647), action: z.enum(['void', 'refund']) });
const DONE = { approve: 'approved', decline: 'declined', void: 'voided', refund: 'refunded' } as const;
const doneQuery = z.object({ done: z.coerce.number().int().positive().optional(), action: z.enum(['approve', 'decline', 'void', 'refund']).optional() });
/** A charge the merchant can still give back: voided while unsettled, refunded (what is left of it) once settled. */
const UNSETTLED = ['authorizedPendingCapture', 'capturedPendingSettlement'];

interface HeldRow {
  id: number;
  type: string;
  status: string;
  amount_cents: number;
  description: string | null;
  submitted_at: Date;
  review_action: string | null;
  email: string | null;
  merchant_customer_id: string | null;
  card_type: string | null;
  card_number: string | null;
}
interface ChargeRow extends HeldRow {
  refunded_cents: number;
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const when = (d: Date) => `${new Date(d).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
const card = (r: HeldRow) => (r.card_number ? `${r.card_type ?? 'Card'} ending ${r.card_number.slice(-4)}` : '');
const customer = (r: HeldRow) => r.email ?? r.merchant_customer_id ?? '';

/**
 * The gateway's merchant screen for transactions its fraud filters held (Authorize.net's "Unsettled Transactions,
 * held for review"): each with Approve and Decline, as the merchant's own staff would decide them outside our product.
 * The merchant signs in with the API's credentials (HTTP Basic: login id, transaction key). A decision is the API's
 * (`decide`): the merchant's webhooks hear of it, so our API's Pending charge follows. Below them, the latest approved
 * charges, each with Void while unsettled or Refund (what is left of it) once settled: the merchant's staff giving money
 * back outside our product, which our API hears of by the void.created and refund.created webhooks (`reverse`).
 */
export function registerMerchantScreen(app: FastifyInstance, db: PGlite, opts: { user: string; secret: string; decide: Decide; reverse: Reverse }): void {
  const signedIn = basicCredentials(opts.user, opts.secret);
  const send = (reply: FastifyReply, status: number, title: string, body: string) =>
    reply
      .status(status)
      .header('content-security-policy', MERCHANT_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page(title, body));

  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/gateway/merchant')) return;
    if (!signedIn(req)) {
      return send(
        reply.header('www-authenticate', 'Basic realm="Sandbox gateway merchant", charset="UTF-8"'),
        401,
        'Sign in',
        '<h1>Sign in</h1><p>The merchant screen needs the gateway login id and transaction key.</p>',
      );
    }
    // Browsers resend Basic credentials on any site's form post: a decision must come from this page.
    if (req.method === 'POST' && req.headers.origin !== `${req.protocol}://${req.headers.host}`) {
      return send(reply, 403, 'Refused', '<h1>Refused</h1><p>Decisions are taken from the merchant screen only.</p>');
    }
  });

  const rows = async (held: boolean) =>
    (
      await db.query<HeldRow>(
        `SELECT t.id, t.type, t.status, t.amount_cents, t.description, t.submitted_at, t.review_action,
                c.email, c.merchant_customer_id, p.card_type, p.card_number
           FROM gw_transactions t
           LEFT JOIN gw_customers c ON c.id = t.customer_id
           LEFT JOIN gw_payment_profiles p ON p.id = t.payment_profile_id
          WHERE ${held ? "t.status LIKE 'FDS%' AND t.review_action IS NULL" : 't.review_action IS NOT NULL'}
          ORDER BY t.submitted_at ${held ? 'ASC' : 'DESC'}, t.id
          LIMIT 50`,
      )
    ).rows;

  /** The latest approved charges not given back yet: unsettled, or settled with some of it not refunded. */
  const charges = async () =>
    (
      await db.query<ChargeRow>(
        `SELECT * FROM (
           SELECT t.id, t.type, t.status, t.amount_cents, t.description, t.submitted_at, t.review_action,
                  c.email, c.merchant_customer_id, p.card_type, p.card_number,
                  (SELECT COALESCE(sum(r.amount_cents), 0)::int FROM gw_transactions r
                    WHERE r.ref_trans_id = t.id AND r.type = 'refund' AND r.response_code = '1' AND r.status <> 'voided') AS refunded_cents
             FROM gw_transactions t
             LEFT JOIN gw_customers c ON c.id = t.customer_id
             LEFT JOIN gw_payment_profiles p ON p.id = t.payment_profile_id
            WHERE t.type IN ('authCapture', 'authOnly') AND t.response_code = '1'
              AND t.status IN ('authorizedPendingCapture', 'capturedPendingSettlement', 'settledSuccessfully')) x
          WHERE refunded_cents < amount_cents
          ORDER BY submitted_at DESC, id DESC
          LIMIT 50`,
      )
    ).rows;

  app.get('/gateway/merchant', async (req, reply) => {
    const q = doneQuery.safeParse(req.query ?? {});
    const done = q.success && q.data.done && q.data.action ? `<p role="status">Transaction ${q.data.done} ${DONE[q.data.action]}.</p>` : '';
    const held = await rows(true);
    const decided = await rows(false);
    const open = await charges();
    const kind = (r: HeldRow) => (r.type === 'authOnly' ? 'Authorization' : 'Charge');
    const heldTable = held.length
      ? `<table><caption>Held for review</caption><thead><tr><th>Transaction</th><th>Submitted</th><th>Customer</th><th>Card</th><th>Type</th><th>Description</th><th>Amount</th><th>Decision</th></tr></thead><tbody>${held
          .map(
            (r) =>
              `<tr><td>${r.id}</td><td>${when(r.submitted_at)}</td><td>${escapeHtml(customer(r))}</td><td>${escapeHtml(card(r))}</td><td>${kind(r)}</td>` +
              `<td>${escapeHtml(r.description ?? '')}</td><td>${dollars(r.amount_cents)}</td><td>` +
              `<form method="post" action="/gateway/merchant/held/${r.id}/approve"><button aria-label="Approve transaction ${r.id}">Approve</button></form> ` +
              `<form method="post" action="/gateway/merchant/held/${r.id}/decline"><button aria-label="Decline transaction ${r.id}">Decline</button></form></td></tr>`,
          )
          .join('')}</tbody></table>`
      : '<p>No transactions are held for review.</p>';
    const decidedTable = decided.length
      ? `<table><thead><tr><th>Transaction</th><th>Customer</th><th>Card</th><th>Amount</th><th>Decision</th><th>Status now</th></tr></thead><tbody>${decided
          .map(
            (r) =>
              `<tr><td>${r.id}</td><td>${escapeHtml(customer(r))}</td><td>${escapeHtml(card(r))}</td><td>${dollars(r.amount_cents)}</td>` +
              `<td>${r.review_action === 'approve' ? 'Approved' : 'Declined'}</td><td>${escapeHtml(r.status)}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : '';
    const chargeTable = open.length
      ? `<table><caption>Approved charges</caption><thead><tr><th>Transaction</th><th>Submitted</th><th>Customer</th><th>Card</th><th>Type</th><th>Description</th><th>Amount</th><th>Refunded</th><th>Status</th><th>Give back</th></tr></thead><tbody>${open
          .map((r) => {
            const action = UNSETTLED.includes(r.status) ? 'void' : 'refund';
            const label = action === 'void' ? 'Void' : 'Refund';
            return (
              `<tr><td>${r.id}</td><td>${when(r.submitted_at)}</td><td>${escapeHtml(customer(r))}</td><td>${escapeHtml(card(r))}</td><td>${kind(r)}</td>` +
              `<td>${escapeHtml(r.description ?? '')}</td><td>${dollars(r.amount_cents)}</td><td>${dollars(r.refunded_cents)}</td><td>${escapeHtml(r.status)}</td><td>` +
              `<form method="post" action="/gateway/merchant/transactions/${r.id}/${action}"><button aria-label="${label} transaction ${r.id}">${label}</button></form></td></tr>`
            );
          })
          .join('')}</tbody></table>`
      : '<p>No approved charges are left to give back.</p>';
    const tables =
      `${held.length ? scrollFrame(heldTable) : heldTable}${decided.length ? `<h2>Decided</h2>${scrollFrame(decidedTable)}` : ''}` +
      `<h2>Charges</h2>${open.length ? scrollFrame(chargeTable) : chargeTable}`;
    return send(reply, 200, 'Sandbox gateway: held transactions', `<main><h1>Held transactions</h1>${done}${tables}</main>`);
  });

  /**
   * A form of the screen: `params` names the transaction and what to do with it, `act` does it as the gateway's API
   * does; done, the screen again saying so, refused, a page with the gateway's words (`title`) and the way back.
   */
  const action = <A extends keyof typeof DONE>(
    path: string,
    params: z.ZodType<{ id: number; action: A }>,
    title: string,
    act: (id: number, action: A) => Promise<{ status: number; error?: string }>,
  ) =>
    app.post(path, async (req, reply) => {
      const back = '<p><a href="/gateway/merchant">Held transactions</a></p>';
      const p = params.safeParse(req.params);
      if (!p.success) return send(reply, 404, 'Not found', `<h1>Not found</h1>${back}`);
      const r = await act(p.data.id, p.data.action);
      if (r.status !== 200) return send(reply, r.status, title, `<h1>${title}</h1><p>${escapeHtml(r.error ?? '')}</p>${back}`);
      return reply.redirect(`/gateway/merchant?done=${p.data.id}&action=${p.data.action}`, 303);
    });
  action('/gateway/merchant/held/:id/:action', decisionParams, 'Not decided', opts.decide);
  action('/gateway/merchant/transactions/:id/:action', reversalParams, 'Not given back', opts.reverse);
}
