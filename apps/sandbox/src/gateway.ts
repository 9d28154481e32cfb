import { createHash, createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { cardBrand, chargeOutcome, checkCard, GATEWAY_MESSAGES } from './gateway-cards';
import { migrateGateway } from './gateway-db';
import { HOSTED_SCRIPT, hostedFormPage } from './gateway-hosted';
import { registerMerchantScreen } from './gateway-merchant';
import { anchorDayOf, renewalAfter } from './renewal';
import { merchantApi } from './service';

/**
 * A sandbox card gateway in the manner of Authorize.net: customer and payment profiles, a hosted card form
 * (Accept Hosted), subscriptions, authorize / capture / refund / void, settlement in batches, idempotency keys
 * and signed webhooks. The merchant (our API) authenticates with HTTP Basic (login id : transaction key).
 */
export interface GatewayOptions {
  loginId: string;
  transactionKey: string;
  /** Key of the HMAC-SHA512 signature (X-ANET-Signature) on webhooks. */
  signatureKey: string;
  /** A captured transaction settles this long after it was submitted (a batch runs every tick). */
  settlementDelayMs: number;
  /** How often the batch and the recurring-billing runs check for due work; 0 turns the timer off (tests). */
  tickMs: number;
  /** Hosted form tokens live this long (Authorize.net: 15 minutes). */
  tokenTtlMs: number;
}

export function gatewayOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayOptions {
  const num = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of milliseconds, got "${raw}"`);
    return n;
  };
  return {
    loginId: env.GATEWAY_LOGIN_ID || 'sandbox-merchant',
    transactionKey: env.GATEWAY_TRANSACTION_KEY || 'sandbox-transaction-key',
    signatureKey: env.GATEWAY_SIGNATURE_KEY || 'sandbox-signature-key',
    settlementDelayMs: num('GATEWAY_SETTLEMENT_DELAY_MS', 5 * 60_000),
    tickMs: num('GATEWAY_TICK_MS', 5_000),
    tokenTtlMs: num('GATEWAY_TOKEN_TTL_MS', 15 * 60_000),
  };
}

type Db = PGlite | Transaction;

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const cents = z.number().int().positive().max(100_000_000);
const origin = z
  .string()
  .url()
  .refine((u) => /^https?:$/.test(new URL(u).protocol), 'must be an http(s) address');

const customerBody = z.object({
  merchantCustomerId: z.string().trim().min(1).max(64),
  email: z.string().max(320).optional(),
  description: z.string().max(255).optional(),
});
const tokenBody = z.object({
  customerProfileId: z.number().int().positive(),
  paymentProfileId: z.number().int().positive().optional(),
  returnUrl: origin,
  billingAddressOptions: z.enum(['showNone', 'showBillingAddress']).default('showNone'),
  manageOptions: z.enum(['showAll', 'showPayment']).default('showAll'),
});
const reviewBody = z.object({ action: z.enum(['approve', 'decline']) });
const transactionBody = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['authOnly', 'authCapture']),
    customerProfileId: z.number().int().positive(),
    paymentProfileId: z.number().int().positive(),
    amountCents: cents,
    description: z.string().max(255).optional(),
  }),
  z.object({ type: z.literal('priorAuthCapture'), refTransId: z.number().int().positive(), amountCents: cents.optional() }),
  z.object({ type: z.literal('refund'), refTransId: z.number().int().positive(), amountCents: cents.optional() }),
  z.object({ type: z.literal('void'), refTransId: z.number().int().positive() }),
]);
const subscriptionBody = z.object({
  customerProfileId: z.number().int().positive(),
  paymentProfileId: z.number().int().positive(),
  name: z.string().trim().min(1).max(50),
  intervalMonths: z.union([z.literal(0), z.literal(1), z.literal(12)]),
  amountCents: cents,
  /**
   * ARB's paymentSchedule.startDate ('YYYY-MM-DD', the gateway's day, UTC here): the day of the first payment. Today or
   * none charges the first payment at once; a later day charges nothing now, and the subscription's first charge (and
   * its anchor day) is that day. A day before today is refused.
   */
  startDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'not a day')
    .optional(),
});
const subscriptionUpdate = z.object({ paymentProfileId: z.number().int().positive().optional(), amountCents: cents.optional() });
const webhookBody = z.object({ url: origin });
const saveBody = z.object({
  token: z.string().min(1).max(200),
  cardNumber: z.string().max(40).default(''),
  expiry: z.string().max(10),
  cvv: z.string().max(10),
  zip: z.string().max(10).optional(),
});

interface TxRow {
  id: number;
  type: string;
  status: string;
  response_code: string;
  message: string;
  auth_code: string | null;
  amount_cents: number;
  customer_id: number | null;
  payment_profile_id: number | null;
  ref_trans_id: number | null;
  subscription_id: number | null;
  description: string | null;
  batch_id: number | null;
  submitted_at: Date;
  settled_at: Date | null;
  review_action: string | null;
}
export interface GatewayTransaction {
  transId: number;
  type: string;
  status: string;
  /** '1' approved, '2' declined, '3' error, '4' held for review (Authorize.net's response codes). */
  responseCode: '1' | '2' | '3' | '4';
  message: string;
  authCode: string | null;
  amountCents: number;
  customerProfileId: number | null;
  paymentProfileId: number | null;
  refTransId: number | null;
  subscriptionId: number | null;
  batchId: number | null;
  submittedAt: string;
  settledAt: string | null;
}
const toTx = (r: TxRow): GatewayTransaction => ({
  transId: r.id,
  type: r.type,
  status: r.status,
  responseCode: r.response_code as GatewayTransaction['responseCode'],
  message: r.message,
  authCode: r.auth_code,
  amountCents: r.amount_cents,
  customerProfileId: r.customer_id,
  paymentProfileId: r.payment_profile_id,
  refTransId: r.ref_trans_id,
  subscriptionId: r.subscription_id,
  batchId: r.batch_id,
  submittedAt: new Date(r.submitted_at).toISOString(),
  settledAt: r.settled_at ? new Date(r.settled_at).toISOString() : null,
});

interface ProfileRow {
  id: number;
  customer_id: number;
  card_number: string;
  card_type: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
}
const toProfile = (p: ProfileRow) => ({
  paymentProfileId: p.id,
  cardNumber: `XXXX${p.card_number.slice(-4)}`,
  last4: p.card_number.slice(-4),
  cardType: p.card_type,
  expiration: `${String(p.exp_month).padStart(2, '0')}/${p.exp_year}`,
  isDefault: p.is_default,
});

interface SubRow {
  id: number;
  customer_id: number;
  payment_profile_id: number;
  name: string;
  interval_months: number;
  amount_cents: number;
  status: string;
  next_charge_at: Date | null;
  /** The day of the month (UTC) it started on, which its renewals keep (renewal.ts). */
  anchor_day: number;
}
const toSub = (s: SubRow) => ({
  subscriptionId: s.id,
  customerProfileId: s.customer_id,
  paymentProfileId: s.payment_profile_id,
  name: s.name,
  intervalMonths: s.interval_months,
  amountCents: s.amount_cents,
  status: s.status,
  nextChargeAt: s.next_charge_at ? new Date(s.next_charge_at).toISOString() : null,
});

/** HMAC-SHA512 of the body with the signature key, as Authorize.net's X-ANET-Signature ("sha512=" + upper-case hex). */
export function webhookSignature(signatureKey: string, body: string): string {
  return `sha512=${createHmac('sha512', signatureKey).update(body, 'utf8').digest('hex').toUpperCase()}`;
}

export function registerGateway(app: FastifyInstance, db: PGlite, opts: GatewayOptions): void {
  // Merchant API: everything under /gateway/api needs the merchant's credentials.
  const { bad, parse } = merchantApi(app, {
    prefix: '/gateway/api/',
    user: opts.loginId,
    secret: opts.transactionKey,
    unauthorized: 'User authentication failed due to invalid authentication values.',
    migrate: () => migrateGateway(db),
  });

  const profileOf = async (q: Db, customerId: number, profileId: number) =>
    (await q.query<ProfileRow>('SELECT * FROM gw_payment_profiles WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL', [profileId, customerId]))
      .rows[0] ?? null;
  const customerExists = async (q: Db, id: number) => (await q.query('SELECT 1 FROM gw_customers WHERE id = $1', [id])).rows.length > 0;
  const txById = async (q: Db, id: number) => (await q.query<TxRow>('SELECT * FROM gw_transactions WHERE id = $1', [id])).rows[0] ?? null;

  const insertTx = async (
    q: Db,
    t: {
      type: string;
      status: string;
      code: '1' | '2' | '3' | '4';
      message: string;
      amountCents: number;
      customerId?: number | null;
      profileId?: number | null;
      refTransId?: number | null;
      subscriptionId?: number | null;
      description?: string | null;
      idempotencyKey?: string | null;
      requestHash?: string | null;
    },
  ) => {
    const authCode = t.code === '1' ? randomBytes(3).toString('hex').toUpperCase() : null;
    const rows = await q.query<TxRow>(
      `INSERT INTO gw_transactions (type, status, response_code, message, auth_code, amount_cents, customer_id, payment_profile_id,
         ref_trans_id, subscription_id, description, idempotency_key, request_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
      [
        t.type,
        t.status,
        t.code,
        t.message,
        authCode,
        t.amountCents,
        t.customerId ?? null,
        t.profileId ?? null,
        t.refTransId ?? null,
        t.subscriptionId ?? null,
        t.description ?? null,
        t.idempotencyKey ?? null,
        t.requestHash ?? null,
      ],
    );
    const row = rows.rows[0];
    if (!row) throw new Error('insert returned no row');
    return row;
  };

  /** Charges (or authorizes) a stored card: the outcome follows the test number. */
  const charge = async (
    q: Db,
    type: 'authOnly' | 'authCapture',
    customerId: number,
    profile: ProfileRow,
    amountCents: number,
    extra: { description?: string | null; subscriptionId?: number | null; idempotencyKey?: string | null; requestHash?: string | null },
  ) => {
    const outcome = chargeOutcome(profile.card_number);
    const expired = new Date(Date.UTC(profile.exp_year, profile.exp_month, 0, 23, 59, 59)) < new Date();
    const [code, message, status] =
      outcome === 'approve' && !expired
        ? (['1', GATEWAY_MESSAGES.approved, type === 'authOnly' ? 'authorizedPendingCapture' : 'capturedPendingSettlement'] as const)
        : outcome === 'review' && !expired
          ? (['4', GATEWAY_MESSAGES.heldForReview, type === 'authOnly' ? 'FDSAuthorizedPendingReview' : 'FDSPendingReview'] as const)
          : outcome === 'decline' || outcome === 'chargeDecline'
            ? (['2', GATEWAY_MESSAGES.declined, 'declined'] as const)
            : outcome === 'cvv'
              ? (['2', GATEWAY_MESSAGES.cvv, 'declined'] as const)
              : (['3', GATEWAY_MESSAGES.expired, 'declined'] as const);
    return insertTx(q, { type, status, code, message, amountCents, customerId, profileId: profile.id, ...extra });
  };

  // ---- webhooks ----
  const deliver = async (eventType: string, payload: Record<string, unknown>) => {
    const hooks = (await db.query<{ id: number; url: string }>('SELECT id, url FROM gw_webhooks ORDER BY id')).rows;
    for (const hook of hooks) {
      const body = JSON.stringify({
        notificationId: randomBytes(16).toString('hex'),
        eventType,
        eventDate: new Date().toISOString(),
        webhookId: String(hook.id),
        payload,
      });
      const row = (
        await db.query<{ id: number }>('INSERT INTO gw_webhook_deliveries (webhook_id, event_type, body) VALUES ($1, $2, $3) RETURNING id', [
          hook.id,
          eventType,
          body,
        ])
      ).rows[0];
      void post(hook.url, body)
        .then((status) => db.query('UPDATE gw_webhook_deliveries SET status = $2, attempts = attempts + 1 WHERE id = $1', [row?.id, status]))
        .catch((err: Error) =>
          db.query('UPDATE gw_webhook_deliveries SET error = $2, attempts = attempts + 1 WHERE id = $1', [row?.id, err.message]).catch(() => {}),
        );
    }
  };
  /** POSTs a signed body. Names under .localhost go to the loopback address with their Host header (RFC 6761). */
  const post = (url: string, body: string) =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(url);
      const loopback = u.hostname === 'localhost' || u.hostname.endsWith('.localhost');
      const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
      const r = send(
        {
          method: 'POST',
          protocol: u.protocol,
          hostname: loopback ? '127.0.0.1' : u.hostname,
          port: u.port || (u.protocol === 'https:' ? 443 : 80),
          path: `${u.pathname}${u.search}`,
          headers: {
            host: u.host,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-anet-signature': webhookSignature(opts.signatureKey, body),
          },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      r.on('timeout', () => r.destroy(new Error('webhook timed out')));
      r.on('error', reject);
      r.end(body);
    });

  // ---- settlement and recurring billing ----
  const settleDue = async (cutoff: Date) =>
    db.transaction(async (tx) => {
      const due = await tx.query<{ id: number }>(
        `SELECT id FROM gw_transactions WHERE status IN ('capturedPendingSettlement', 'refundPendingSettlement') AND submitted_at <= $1`,
        [cutoff],
      );
      if (due.rows.length === 0) return { batchId: null, settled: 0 };
      const batch = (await tx.query<{ id: number }>('INSERT INTO gw_batches (transaction_count) VALUES ($1) RETURNING id', [due.rows.length])).rows[0];
      await tx.query(
        `UPDATE gw_transactions SET batch_id = $1, settled_at = now(),
           status = CASE status WHEN 'capturedPendingSettlement' THEN 'settledSuccessfully' ELSE 'refundSettledSuccessfully' END
         WHERE id = ANY($2::int[])`,
        [batch?.id, due.rows.map((r) => r.id)],
      );
      return { batchId: batch?.id ?? null, settled: due.rows.length };
    });

  /** Charges every active subscription whose next charge is due, and tells the merchant by webhook. */
  const runDueSubscriptions = async (now: Date, onlyId?: number) => {
    const due = (
      await db.query<SubRow>(
        `SELECT * FROM gw_subscriptions WHERE status = 'active' AND next_charge_at IS NOT NULL AND next_charge_at <= $1 AND ($2::int IS NULL OR id = $2) ORDER BY id`,
        [now, onlyId ?? null],
      )
    ).rows;
    const out: GatewayTransaction[] = [];
    for (const s of due) {
      const tx = await db.transaction(async (t) => {
        const profile = await profileOf(t, s.customer_id, s.payment_profile_id);
        const row = profile
          ? await charge(t, 'authCapture', s.customer_id, profile, s.amount_cents, { subscriptionId: s.id, description: s.name })
          : await insertTx(t, {
              type: 'authCapture',
              status: 'declined',
              code: '3',
              message: GATEWAY_MESSAGES.profileNotFound,
              amountCents: s.amount_cents,
              customerId: s.customer_id,
              subscriptionId: s.id,
            });
        await t.query(`UPDATE gw_subscriptions SET next_charge_at = $2, status = CASE WHEN $3 THEN status ELSE 'suspended' END WHERE id = $1`, [
          s.id,
          renewalAfter(s.next_charge_at ?? now, s.interval_months, s.anchor_day),
          row.response_code === '1',
        ]);
        return row;
      });
      out.push(toTx(tx));
      // A renewal held for review is fraud.held (its decision follows as fraud.approved or fraud.declined).
      const event = { '1': 'authcapture.created', '4': 'fraud.held' }[tx.response_code] ?? 'fraud.declined';
      await deliver(`net.authorize.payment.${event}`, txPayload(tx));
    }
    return out;
  };
  const txPayload = (t: TxRow) => ({
    responseCode: Number(t.response_code),
    authCode: t.auth_code,
    authAmount: t.amount_cents / 100,
    entityName: 'transaction',
    id: String(t.id),
    subscriptionId: t.subscription_id ? String(t.subscription_id) : null,
    customerProfileId: t.customer_id,
    paymentProfileId: t.payment_profile_id,
    message: t.message,
  });

  let timer: NodeJS.Timeout | null = null;
  if (opts.tickMs > 0) {
    let busy = false;
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        if (busy) return;
        busy = true;
        void (async () => {
          await settleDue(new Date(Date.now() - opts.settlementDelayMs));
          await runDueSubscriptions(new Date());
        })()
          .catch((err) => app.log.error({ err }, 'gateway batch failed'))
          .finally(() => {
            busy = false;
          });
      }, opts.tickMs);
      timer.unref();
    });
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  // ---- customers and payment profiles ----
  app.post('/gateway/api/customers', async (req, reply) => {
    const b = parse(customerBody, req.body, reply);
    if (!b) return reply;
    const row = (
      await db.query<{ id: number }>(
        `INSERT INTO gw_customers (merchant_customer_id, email, description) VALUES ($1, $2, $3)
         ON CONFLICT (merchant_customer_id) DO UPDATE SET email = COALESCE(EXCLUDED.email, gw_customers.email) RETURNING id`,
        [b.merchantCustomerId, b.email ?? null, b.description ?? null],
      )
    ).rows[0];
    return reply.status(200).send({ customerProfileId: row?.id });
  });

  app.get('/gateway/api/customers/:id', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    const c = (await db.query<{ id: number; merchant_customer_id: string; email: string | null }>('SELECT * FROM gw_customers WHERE id = $1', [p.id])).rows[0];
    if (!c) return bad(reply, 404, 'The record cannot be found.');
    const profiles = (await db.query<ProfileRow>('SELECT * FROM gw_payment_profiles WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY id', [p.id])).rows;
    const subs = (await db.query<SubRow>('SELECT * FROM gw_subscriptions WHERE customer_id = $1 ORDER BY id', [p.id])).rows;
    return {
      customerProfileId: c.id,
      merchantCustomerId: c.merchant_customer_id,
      email: c.email,
      paymentProfiles: profiles.map(toProfile),
      subscriptions: subs.map(toSub),
    };
  });

  app.post('/gateway/api/customers/:id/payment-profiles/:profileId/default', async (req, reply) => {
    const p = parse(z.object({ id: idParam.shape.id, profileId: idParam.shape.id }), req.params, reply);
    if (!p) return reply;
    const done = await db.transaction(async (tx) => {
      if (!(await profileOf(tx, p.id, p.profileId))) return false;
      await tx.query('UPDATE gw_payment_profiles SET is_default = (id = $2) WHERE customer_id = $1 AND deleted_at IS NULL', [p.id, p.profileId]);
      return true;
    });
    if (!done) return bad(reply, 404, GATEWAY_MESSAGES.profileNotFound);
    return { ok: true };
  });

  app.delete('/gateway/api/customers/:id/payment-profiles/:profileId', async (req, reply) => {
    const p = parse(z.object({ id: idParam.shape.id, profileId: idParam.shape.id }), req.params, reply);
    if (!p) return reply;
    const done = await db.transaction(async (tx) => {
      const profile = await profileOf(tx, p.id, p.profileId);
      if (!profile) return false;
      await tx.query('UPDATE gw_payment_profiles SET deleted_at = now(), is_default = false WHERE id = $1', [p.profileId]);
      if (profile.is_default) {
        await tx.query(
          `UPDATE gw_payment_profiles SET is_default = true WHERE id = (SELECT id FROM gw_payment_profiles WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY id DESC LIMIT 1)`,
          [p.id],
        );
      }
      return true;
    });
    if (!done) return bad(reply, 404, GATEWAY_MESSAGES.profileNotFound);
    return { ok: true };
  });

  // ---- hosted form ----
  app.post('/gateway/api/hosted-tokens', async (req, reply) => {
    const b = parse(tokenBody, req.body, reply);
    if (!b) return reply;
    if (!(await customerExists(db, b.customerProfileId))) return bad(reply, 404, 'The record cannot be found.');
    if (b.paymentProfileId && !(await profileOf(db, b.customerProfileId, b.paymentProfileId))) return bad(reply, 404, GATEWAY_MESSAGES.profileNotFound);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + opts.tokenTtlMs);
    await db.query(
      `INSERT INTO gw_form_tokens (token, customer_id, payment_profile_id, parent_origin, billing_address, manage, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [token, b.customerProfileId, b.paymentProfileId ?? null, new URL(b.returnUrl).origin, b.billingAddressOptions, b.manageOptions, expiresAt],
    );
    const page = b.paymentProfileId ? 'editPayment' : 'addPayment';
    const base = `${req.protocol}://${req.host}`;
    return { token, url: `${base}/customer/${page}`, expiresAt: expiresAt.toISOString() };
  });

  interface TokenRow {
    token: string;
    customer_id: number;
    payment_profile_id: number | null;
    parent_origin: string;
    billing_address: string;
    manage: string;
    expires_at: Date;
    used_at: Date | null;
  }
  const liveToken = async (q: Db, token: string) => {
    const t = (await q.query<TokenRow>('SELECT * FROM gw_form_tokens WHERE token = $1', [token])).rows[0];
    return t && !t.used_at && new Date(t.expires_at) > new Date() ? t : null;
  };

  const formPage = async (req: FastifyRequest, reply: FastifyReply, mode: 'add' | 'edit') => {
    const source = { ...(req.query as object), ...((req.body as object | undefined) ?? {}) } as Record<string, unknown>;
    const token = typeof source.token === 'string' ? source.token : '';
    const t = token ? await liveToken(db, token) : null;
    const send = (status: number, html: string, ancestors: string) =>
      reply
        .status(status)
        .header(
          'content-security-policy',
          `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors ${ancestors}`,
        )
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(html);
    if (!t) return send(403, hostedFormPage({ error: 'The session has expired. Please close this form and open it again.' }), "'none'");
    // The edit form edits the card its token was issued for (the save writes that one); a posted paymentProfileId must
    // name the same card.
    const posted = typeof source.paymentProfileId === 'string' && source.paymentProfileId !== '' ? Number(source.paymentProfileId) : null;
    const editing =
      mode === 'edit' && t.payment_profile_id && (posted === null || posted === t.payment_profile_id)
        ? await profileOf(db, t.customer_id, t.payment_profile_id)
        : null;
    if (mode === 'edit' && !editing) return send(404, hostedFormPage({ error: GATEWAY_MESSAGES.profileNotFound }), t.parent_origin);
    const saved =
      t.manage === 'showAll'
        ? (await db.query<ProfileRow>('SELECT * FROM gw_payment_profiles WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY id', [t.customer_id])).rows.map(
            toProfile,
          )
        : [];
    return send(
      200,
      hostedFormPage({
        token: t.token,
        parentOrigin: t.parent_origin,
        showZip: t.billing_address === 'showBillingAddress',
        editing: editing ? toProfile(editing) : null,
        saved,
      }),
      t.parent_origin,
    );
  };
  app.get('/customer/addPayment', (req, reply) => formPage(req, reply, 'add'));
  app.post('/customer/addPayment', (req, reply) => formPage(req, reply, 'add'));
  app.get('/customer/editPayment', (req, reply) => formPage(req, reply, 'edit'));
  app.post('/customer/editPayment', (req, reply) => formPage(req, reply, 'edit'));
  app.get('/customer/hosted.js', (_req, reply) =>
    reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').type('text/javascript; charset=utf-8').send(HOSTED_SCRIPT),
  );

  /** The hosted form's own save call (same origin as the form): the card number goes nowhere else. */
  app.post('/customer/api/save', async (req, reply) => {
    const b = parse(saveBody, req.body, reply);
    if (!b) return reply;
    const result = await db.transaction(async (tx) => {
      const t = await liveToken(tx, b.token);
      if (!t) return { status: 403, error: 'The session has expired. Please close this form and open it again.' } as const;
      const m = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(b.expiry.trim());
      if (!m) return { status: 400, error: GATEWAY_MESSAGES.invalidExpiry } as const;
      const expMonth = Number(m[1]);
      const expYear = (m[2] ?? '').length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
      const existing = t.payment_profile_id ? await profileOf(tx, t.customer_id, t.payment_profile_id) : null;
      const number = b.cardNumber.replace(/[\s-]/g, '') || existing?.card_number || '';
      const check = checkCard({ cardNumber: number, expMonth, expYear, cvv: b.cvv.trim() });
      if (!check.ok) return { status: 402, error: GATEWAY_MESSAGES[check.code] } as const;
      let profileId: number;
      if (existing) {
        await tx.query('UPDATE gw_payment_profiles SET card_number = $2, card_type = $3, exp_month = $4, exp_year = $5, zip = $6 WHERE id = $1', [
          existing.id,
          number,
          cardBrand(number),
          expMonth,
          expYear,
          b.zip ?? null,
        ]);
        profileId = existing.id;
      } else {
        const first = (await tx.query('SELECT 1 FROM gw_payment_profiles WHERE customer_id = $1 AND deleted_at IS NULL', [t.customer_id])).rows.length === 0;
        const row = (
          await tx.query<{ id: number }>(
            `INSERT INTO gw_payment_profiles (customer_id, card_number, card_type, exp_month, exp_year, zip, is_default) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
            [t.customer_id, number, cardBrand(number), expMonth, expYear, b.zip ?? null, first],
          )
        ).rows[0];
        profileId = row?.id ?? 0;
      }
      await tx.query('UPDATE gw_form_tokens SET used_at = now() WHERE token = $1', [t.token]);
      return { status: 200, paymentProfileId: profileId, customerProfileId: t.customer_id } as const;
    });
    if (result.status !== 200) return bad(reply, result.status, result.error);
    return { paymentProfileId: result.paymentProfileId, customerProfileId: result.customerProfileId };
  });

  // ---- transactions ----
  /**
   * A transaction request, the API's (with its idempotency key, if any) or the merchant screen's (none). An approved
   * void or refund tells the merchant's webhooks (void.created, refund.created), whoever asked for it, as
   * Authorize.net's do; a replay of a keyed request tells no one again.
   */
  const transact = async (b: z.infer<typeof transactionBody>, key: string | null) => {
    const hash = createHash('sha256').update(JSON.stringify(b)).digest('hex');
    const result = await db.transaction(async (tx) => {
      if (key) {
        const prior = (await tx.query<TxRow & { request_hash: string }>('SELECT * FROM gw_transactions WHERE idempotency_key = $1', [key])).rows[0];
        if (prior) {
          if (prior.request_hash !== hash) return { status: 409, error: 'The idempotency key was already used for a different request.' } as const;
          return { status: 200, tx: prior, replayed: true } as const;
        }
      }
      const extra = { idempotencyKey: key, requestHash: hash };
      if (b.type === 'authOnly' || b.type === 'authCapture') {
        const profile = await profileOf(tx, b.customerProfileId, b.paymentProfileId);
        if (!profile) return { status: 404, error: GATEWAY_MESSAGES.profileNotFound } as const;
        return { status: 200, tx: await charge(tx, b.type, b.customerProfileId, profile, b.amountCents, { description: b.description, ...extra }) } as const;
      }
      if (!('refTransId' in b)) throw new Error('unreachable: a charge was handled above');
      const ref = await txById(tx, b.refTransId);
      if (!ref) return { status: 404, error: GATEWAY_MESSAGES.notFound } as const;
      // A refusal keeps no idempotency key: the same request may succeed later (a refund once the charge settled).
      const refuse = (message: string) =>
        insertTx(tx, {
          type: b.type,
          status: 'error',
          code: '3',
          message,
          amountCents: 'amountCents' in b && b.amountCents ? b.amountCents : ref.amount_cents,
          customerId: ref.customer_id,
          profileId: ref.payment_profile_id,
          refTransId: ref.id,
          idempotencyKey: null,
        });
      if (b.type === 'priorAuthCapture') {
        if (ref.status !== 'authorizedPendingCapture') return { status: 200, tx: await refuse(GATEWAY_MESSAGES.captureNotAllowed) } as const;
        const amount = b.amountCents ?? ref.amount_cents;
        if (amount > ref.amount_cents) return { status: 200, tx: await refuse(GATEWAY_MESSAGES.captureNotAllowed) } as const;
        await tx.query(`UPDATE gw_transactions SET status = 'capturedPendingSettlement', amount_cents = $2, submitted_at = now() WHERE id = $1`, [
          ref.id,
          amount,
        ]);
        const row = await insertTx(tx, {
          type: 'priorAuthCapture',
          status: 'capturedPendingSettlement',
          code: '1',
          message: GATEWAY_MESSAGES.approved,
          amountCents: amount,
          customerId: ref.customer_id,
          profileId: ref.payment_profile_id,
          refTransId: ref.id,
          ...extra,
        });
        // The capture is carried by the original authorization; this row records the request only.
        await tx.query(`UPDATE gw_transactions SET status = 'captureRecorded' WHERE id = $1`, [row.id]);
        return { status: 200, tx: { ...row, status: 'capturedPendingSettlement' } } as const;
      }
      if (b.type === 'refund') {
        if (ref.status !== 'settledSuccessfully') return { status: 200, tx: await refuse(GATEWAY_MESSAGES.notSettled) } as const;
        const refunded =
          (
            await tx.query<{ s: number }>(
              `SELECT COALESCE(sum(amount_cents), 0)::int AS s FROM gw_transactions WHERE ref_trans_id = $1 AND type = 'refund' AND response_code = '1' AND status <> 'voided'`,
              [ref.id],
            )
          ).rows[0]?.s ?? 0;
        const amount = b.amountCents ?? ref.amount_cents - refunded;
        if (amount <= 0 || refunded + amount > ref.amount_cents) return { status: 200, tx: await refuse(GATEWAY_MESSAGES.refundTooLarge) } as const;
        return {
          status: 200,
          tx: await insertTx(tx, {
            type: 'refund',
            status: 'refundPendingSettlement',
            code: '1',
            message: GATEWAY_MESSAGES.approved,
            amountCents: amount,
            customerId: ref.customer_id,
            profileId: ref.payment_profile_id,
            refTransId: ref.id,
            ...extra,
          }),
        } as const;
      }
      // void: only before settlement
      if (!['authorizedPendingCapture', 'capturedPendingSettlement', 'refundPendingSettlement'].includes(ref.status))
        return { status: 200, tx: await refuse(GATEWAY_MESSAGES.voidNotAllowed) } as const;
      await tx.query(`UPDATE gw_transactions SET status = 'voided' WHERE id = $1`, [ref.id]);
      return {
        status: 200,
        tx: await insertTx(tx, {
          type: 'void',
          status: 'voided',
          code: '1',
          message: GATEWAY_MESSAGES.approved,
          amountCents: ref.amount_cents,
          customerId: ref.customer_id,
          profileId: ref.payment_profile_id,
          refTransId: ref.id,
          ...extra,
        }),
      } as const;
    });
    if (result.status === 200 && !('replayed' in result) && (b.type === 'void' || b.type === 'refund') && result.tx.response_code === '1') {
      await deliver(`net.authorize.payment.${b.type}.created`, txPayload(result.tx));
    }
    return result;
  };
  app.post('/gateway/api/transactions', async (req, reply) => {
    const b = parse(transactionBody, req.body, reply);
    if (!b) return reply;
    const keyHeader = req.headers['idempotency-key'];
    const key = typeof keyHeader === 'string' && keyHeader.trim() ? keyHeader.trim().slice(0, 200) : null;
    const result = await transact(b, key);
    if (result.status !== 200) return bad(reply, result.status, result.error);
    return { ...toTx(result.tx), replayed: 'replayed' in result };
  });

  app.get('/gateway/api/transactions/:id', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    const t = await txById(db, p.id);
    if (!t) return bad(reply, 404, GATEWAY_MESSAGES.notFound);
    return toTx(t);
  });

  /**
   * The merchant's decision on a transaction the fraud filters held (Authorize.net's updateHeldTransaction): approve
   * submits it (a charge then settles with the next batch, an authorization waits for its capture), decline declines
   * it, and the merchant's webhooks hear of it (fraud.approved or fraud.declined). The same decision again answers the
   * transaction as it is and tells no one; the other one, or any on a transaction never held, is refused.
   */
  const decideHeld = async (id: number, action: 'approve' | 'decline') => {
    const result = await db.transaction(async (tx) => {
      const t = (await tx.query<TxRow>('SELECT * FROM gw_transactions WHERE id = $1 FOR UPDATE', [id])).rows[0];
      if (!t) return { status: 404, error: GATEWAY_MESSAGES.notFound } as const;
      if (t.review_action === action) return { status: 200, tx: t, decided: false } as const;
      if (t.review_action !== null || !t.status.startsWith('FDS')) return { status: 400, error: GATEWAY_MESSAGES.notHeld } as const;
      const [status, code, message] =
        action === 'approve'
          ? ([t.status === 'FDSAuthorizedPendingReview' ? 'authorizedPendingCapture' : 'capturedPendingSettlement', '1', GATEWAY_MESSAGES.approved] as const)
          : (['declined', '2', GATEWAY_MESSAGES.declined] as const);
      const updated = await tx.query<TxRow>(
        `UPDATE gw_transactions SET status = $2, response_code = $3, message = $4, review_action = $5, submitted_at = now() WHERE id = $1 RETURNING *`,
        [t.id, status, code, message, action],
      );
      // A subscription's held first payment decides the subscription too: approved, it runs (a lifetime one is then
      // over); declined, there is none. A held renewal leaves its running subscription as it is.
      if (t.subscription_id !== null) {
        await tx.query(
          `UPDATE gw_subscriptions SET status = CASE WHEN $2::boolean THEN CASE WHEN interval_months = 0 THEN 'expired' ELSE 'active' END ELSE 'declined' END
           WHERE id = $1 AND status = 'pending'`,
          [t.subscription_id, action === 'approve'],
        );
      }
      return { status: 200, tx: updated.rows[0] as TxRow, decided: true } as const;
    });
    if (result.status === 200 && result.decided) {
      await deliver(action === 'approve' ? 'net.authorize.payment.fraud.approved' : 'net.authorize.payment.fraud.declined', txPayload(result.tx));
    }
    return result;
  };
  app.post('/gateway/api/transactions/:id/review', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    const b = parse(reviewBody, req.body, reply);
    if (!b) return reply;
    const result = await decideHeld(p.id, b.action);
    if (result.status !== 200) return bad(reply, result.status, result.error);
    return toTx(result.tx);
  });
  registerMerchantScreen(app, db, {
    user: opts.loginId,
    secret: opts.transactionKey,
    decide: decideHeld,
    reverse: async (id, type) => {
      const r = await transact({ type, refTransId: id }, null);
      if (r.status !== 200) return r;
      return r.tx.response_code === '1' ? { status: 200 } : { status: 400, error: r.tx.message };
    },
  });

  app.get('/gateway/api/customers/:id/transactions', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    return (await db.query<TxRow>('SELECT * FROM gw_transactions WHERE customer_id = $1 ORDER BY id', [p.id])).rows.map(toTx);
  });

  /** Settles every captured transaction now, in one batch (tests and demos). */
  app.post('/gateway/api/settle-now', async () => settleDue(new Date()));

  // ---- subscriptions ----
  app.post('/gateway/api/subscriptions', async (req, reply) => {
    const b = parse(subscriptionBody, req.body, reply);
    if (!b) return reply;
    const keyHeader = req.headers['idempotency-key'];
    const key = typeof keyHeader === 'string' && keyHeader.trim() ? keyHeader.trim().slice(0, 200) : null;
    const out = await db.transaction(async (tx) => {
      if (key) {
        const prior = (await tx.query<TxRow>('SELECT * FROM gw_transactions WHERE idempotency_key = $1', [key])).rows[0];
        if (prior?.subscription_id) {
          const sub = (await tx.query<SubRow>('SELECT * FROM gw_subscriptions WHERE id = $1', [prior.subscription_id])).rows[0];
          if (sub) return { status: 200, sub, tx: prior } as const;
        }
        const scheduled = (await tx.query<SubRow>('SELECT * FROM gw_subscriptions WHERE idempotency_key = $1', [key])).rows[0];
        if (scheduled) return { status: 200, sub: scheduled, tx: null } as const;
      }
      const profile = await profileOf(tx, b.customerProfileId, b.paymentProfileId);
      if (!profile) return { status: 404, error: GATEWAY_MESSAGES.profileNotFound } as const;
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      if (b.startDate !== undefined && b.startDate < today) return { status: 400, error: GATEWAY_MESSAGES.startDateBeforeToday } as const;
      if (b.startDate !== undefined && b.startDate > today) {
        // Starts later: nothing is charged now; the renewals run from that day (the first charge is on it).
        if (b.intervalMonths === 0) return { status: 400, error: GATEWAY_MESSAGES.startDateLifetime } as const;
        const first = new Date(`${b.startDate}T00:00:00Z`);
        const sub = (
          await tx.query<SubRow>(
            `INSERT INTO gw_subscriptions (customer_id, payment_profile_id, name, interval_months, amount_cents, status, next_charge_at, anchor_day, idempotency_key)
             VALUES ($1, $2, $3, $4, $5, 'active', $6, $7, $8) RETURNING *`,
            [b.customerProfileId, b.paymentProfileId, b.name, b.intervalMonths, b.amountCents, first, anchorDayOf(first), key],
          )
        ).rows[0];
        if (!sub) throw new Error('insert returned no row');
        return { status: 200, sub, tx: null } as const;
      }
      const sub = (
        await tx.query<SubRow>(
          `INSERT INTO gw_subscriptions (customer_id, payment_profile_id, name, interval_months, amount_cents, status, next_charge_at, anchor_day)
           VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) RETURNING *`,
          [
            b.customerProfileId,
            b.paymentProfileId,
            b.name,
            b.intervalMonths,
            b.amountCents,
            b.intervalMonths === 0 ? null : renewalAfter(now, b.intervalMonths, anchorDayOf(now)),
            anchorDayOf(now),
          ],
        )
      ).rows[0];
      if (!sub) throw new Error('insert returned no row');
      const first = await charge(tx, 'authCapture', b.customerProfileId, profile, b.amountCents, {
        subscriptionId: sub.id,
        description: b.name,
        idempotencyKey: key,
        requestHash: null,
      });
      // A declined first payment leaves no subscription; a lifetime one is a single charge and ends at once. One the
      // fraud filters hold keeps the subscription pending (never renewed) until the merchant decides it (decideHeld).
      const status = first.response_code === '4' ? 'pending' : first.response_code !== '1' ? 'declined' : b.intervalMonths === 0 ? 'expired' : 'active';
      const updated = (await tx.query<SubRow>('UPDATE gw_subscriptions SET status = $2 WHERE id = $1 RETURNING *', [sub.id, status])).rows[0] ?? sub;
      return { status: 200, sub: updated, tx: first } as const;
    });
    if (out.status !== 200) return bad(reply, out.status, out.error);
    // A subscription that starts later has no first transaction yet.
    return { subscription: toSub(out.sub), transaction: out.tx ? toTx(out.tx) : null };
  });

  app.get('/gateway/api/subscriptions/:id', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    const s = (await db.query<SubRow>('SELECT * FROM gw_subscriptions WHERE id = $1', [p.id])).rows[0];
    if (!s) return bad(reply, 404, 'The subscription cannot be found.');
    return toSub(s);
  });

  app.put('/gateway/api/subscriptions/:id', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    const b = p && parse(subscriptionUpdate, req.body, reply);
    if (!p || !b) return reply;
    const s = (await db.query<SubRow>('SELECT * FROM gw_subscriptions WHERE id = $1', [p.id])).rows[0];
    if (!s) return bad(reply, 404, 'The subscription cannot be found.');
    if (b.paymentProfileId && !(await profileOf(db, s.customer_id, b.paymentProfileId))) return bad(reply, 404, GATEWAY_MESSAGES.profileNotFound);
    const row = (
      await db.query<SubRow>(
        `UPDATE gw_subscriptions SET payment_profile_id = COALESCE($2, payment_profile_id), amount_cents = COALESCE($3, amount_cents),
           status = CASE WHEN status = 'suspended' AND $2::int IS NOT NULL THEN 'active' ELSE status END WHERE id = $1 RETURNING *`,
        [p.id, b.paymentProfileId ?? null, b.amountCents ?? null],
      )
    ).rows[0];
    return row ? toSub(row) : bad(reply, 404, 'The subscription cannot be found.');
  });

  app.post('/gateway/api/subscriptions/:id/cancel', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    const row = (await db.query<SubRow>(`UPDATE gw_subscriptions SET status = 'canceled', next_charge_at = NULL WHERE id = $1 RETURNING *`, [p.id])).rows[0];
    return row ? toSub(row) : bad(reply, 404, 'The subscription cannot be found.');
  });

  /** Runs the recurring billing now for one subscription, as if its next charge were due (tests and demos). */
  app.post('/gateway/api/subscriptions/:id/charge-now', async (req, reply) => {
    const p = parse(idParam, req.params, reply);
    if (!p) return reply;
    const s = (await db.query<SubRow>(`SELECT * FROM gw_subscriptions WHERE id = $1 AND status = 'active'`, [p.id])).rows[0];
    if (!s) return bad(reply, 404, 'No active subscription with that id.');
    await db.query('UPDATE gw_subscriptions SET next_charge_at = now() WHERE id = $1', [p.id]);
    const [t] = await runDueSubscriptions(new Date(), p.id);
    return t;
  });

  // ---- webhooks ----
  app.post('/gateway/api/webhooks', async (req, reply) => {
    const b = parse(webhookBody, req.body, reply);
    if (!b) return reply;
    const row = (
      await db.query<{ id: number }>('INSERT INTO gw_webhooks (url) VALUES ($1) ON CONFLICT (url) DO UPDATE SET url = EXCLUDED.url RETURNING id', [b.url])
    ).rows[0];
    return { webhookId: row?.id, url: b.url };
  });
  app.get('/gateway/api/webhooks/deliveries', async () =>
    (
      await db.query<{ id: number; event_type: string; body: string; status: number | null; error: string | null }>(
        'SELECT * FROM gw_webhook_deliveries ORDER BY id',
      )
    ).rows.map((d) => ({
      id: d.id,
      eventType: d.event_type,
      body: d.body,
      status: d.status,
      error: d.error,
    })),
  );
}
