import { randomBytes } from 'node:crypto';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  FAIL_MESSAGE,
  fieldValue,
  INSTITUTIONS,
  type Institution,
  institutionById,
  type LoginForm,
  MFA_FAIL_MESSAGE,
  newTransactions,
  STALE_MESSAGE,
  STALE_NEW_PASSWORD,
  stream,
  TEST_PASSWORD,
  TEST_USERS,
} from './aggregator-data';
import { migrateAggregator } from './aggregator-db';
import { AGGREGATOR_SCRIPT, aggregatorPage } from './aggregator-hosted';
import { merchantApi } from './service';

/**
 * A sandbox bank aggregator in the manner of Yodlee FastLink: institutions with their login forms as data, links
 * (provider accounts) made with test credentials that succeed, fail, ask one or two multi-factor steps or go stale,
 * accounts with balances and transactions that grow on refresh, and a hosted linking page for a frame.
 * The client (our API) authenticates with HTTP Basic (client id : secret); each member is an aggregator user,
 * named in the path. Credentials are checked here and never stored.
 */
export interface AggregatorOptions {
  clientId: string;
  secret: string;
  /** Hosted linking page tokens live this long. */
  tokenTtlMs: number;
}

export function aggregatorOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): AggregatorOptions {
  return {
    clientId: env.AGGREGATOR_CLIENT_ID || 'sandbox-finance',
    secret: env.AGGREGATOR_SECRET || 'sandbox-finance-secret',
    tokenTtlMs: 30 * 60_000,
  };
}

type Db = PGlite | Transaction;

export type LinkStatus = 'SUCCESS' | 'FAILED' | 'MFA' | 'STALE';
export interface LinkResult {
  linkId: number | null;
  status: LinkStatus;
  message: string;
  /** The next multi-factor form when status is MFA. */
  form: LoginForm | null;
}

interface LinkRow {
  id: number;
  user_id: number;
  institution_id: number;
  test_user: string;
  status: LinkStatus;
  mfa_step: number;
  stale_fixed: boolean;
  message: string | null;
  updated_at: Date;
}
interface AccountRow {
  id: number;
  link_id: number;
  name: string;
  account_type: string;
  number_last4: string;
  balance_cents: string | number;
  refresh_count: number;
  refreshed_at: Date;
}

const fieldSchema = z.object({ id: z.string().max(100).optional(), name: z.string().max(100), value: z.string().max(200).default('') });
const formSchema = z.object({ fields: z.array(fieldSchema).max(20) });
const userParam = z.object({ user: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/) });
const linkParam = userParam.extend({ linkId: z.coerce.number().int().positive().max(2_147_483_647) });
const linkBody = z.object({ institutionId: z.number().int().positive(), form: formSchema });
const mfaBody = z.object({ form: formSchema });
const refreshBody = z.object({ accountIds: z.array(z.number().int().positive()).max(100) });
const tokenBody = z.object({
  parentOrigin: z
    .string()
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol), 'must be an http(s) address'),
});
const txQuery = z.object({
  accountId: z.coerce.number().int().positive().optional(),
  keyword: z.string().max(100).optional(),
  from: z.string().date().optional(),
  to: z.string().date().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export const toInstitution = (i: Institution, withForm: boolean) => ({
  institutionId: i.id,
  name: i.name,
  url: i.url,
  favicon: i.favicon,
  logo: i.logo,
  popular: i.popular,
  form: withForm ? i.form : null,
});

const toAccount = (a: AccountRow, link: { institution_id: number; status: string }) => ({
  accountId: a.id,
  linkId: a.link_id,
  institutionId: link.institution_id,
  name: a.name,
  accountType: a.account_type,
  numberLast4: a.number_last4,
  balanceCents: Number(a.balance_cents),
  refreshedAt: new Date(a.refreshed_at).toISOString(),
  linkStatus: link.status,
});

/** The linking logic, shared by the client API and the hosted page. */
export function aggregatorCore(db: PGlite) {
  const ensureUser = async (q: Db, login: string): Promise<number> => {
    const rows = await q.query<{ id: number }>(
      'INSERT INTO agg_users (login_name) VALUES ($1) ON CONFLICT (login_name) DO UPDATE SET login_name = EXCLUDED.login_name RETURNING id',
      [login],
    );
    const id = rows.rows[0]?.id;
    if (!id) throw new Error('aggregator user');
    return id;
  };
  const linkOf = async (q: Db, userId: number, linkId: number) =>
    (await q.query<LinkRow>('SELECT * FROM agg_links WHERE id = $1 AND user_id = $2 AND removed_at IS NULL', [linkId, userId])).rows[0] ?? null;

  /** A linked institution's accounts, with a few months of transactions; deterministic from the link id. */
  const openAccounts = async (q: Db, link: LinkRow) => {
    const random = stream(link.id * 7919 + link.institution_id);
    const kinds = link.id % 2 === 0 ? ['Checking', 'Savings'] : ['Checking'];
    for (const kind of kinds) {
      const last4 = String(1000 + Math.floor(random() * 9000));
      const rows = await q.query<{ id: number }>(
        'INSERT INTO agg_accounts (link_id, name, account_type, number_last4, balance_cents) VALUES ($1, $2, $3, $4, 0) RETURNING id',
        [link.id, `${kind} ...${last4}`, kind.toUpperCase(), last4],
      );
      const accountId = rows.rows[0]?.id;
      let balance = 250_000 + Math.floor(random() * 500_000);
      for (let d = 30; d >= 1; d -= 6) {
        for (const t of newTransactions(random, daysAgo(d))) {
          balance += t.amountCents;
          await q.query('INSERT INTO agg_transactions (account_id, posted_date, description, amount_cents) VALUES ($1, $2, $3, $4)', [
            accountId,
            t.date,
            t.description,
            t.amountCents,
          ]);
        }
      }
      await q.query('UPDATE agg_accounts SET balance_cents = $2 WHERE id = $1', [accountId, balance]);
    }
  };

  const setLink = async (q: Db, id: number, patch: { status: LinkStatus; mfaStep?: number; message?: string | null; staleFixed?: boolean }) => {
    const rows = await q.query<LinkRow>(
      `UPDATE agg_links SET status = $2, mfa_step = COALESCE($3, mfa_step), message = $4, stale_fixed = COALESCE($5, stale_fixed), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, patch.status, patch.mfaStep ?? null, patch.message ?? null, patch.staleFixed ?? null],
    );
    const row = rows.rows[0];
    if (!row) throw new Error('link');
    return row;
  };

  const credentialsOk = (login: string, password: string) => Boolean(TEST_USERS[login]) && password === TEST_PASSWORD;

  return {
    ensureUser,
    linkOf,

    async link(login: string, institutionId: number, form: z.infer<typeof formSchema>): Promise<{ status: number; result?: LinkResult; error?: string }> {
      const inst = institutionById(institutionId);
      if (!inst) return { status: 404, error: 'The institution was not found.' };
      return db.transaction(async (tx) => {
        const userId = await ensureUser(tx, login);
        const existing = await tx.query(
          `SELECT 1 FROM agg_links WHERE user_id = $1 AND institution_id = $2 AND removed_at IS NULL AND status IN ('SUCCESS', 'STALE')`,
          [userId, institutionId],
        );
        if (existing.rows.length) return { status: 409, error: `${inst.name} is already linked.` };
        const testUser = fieldValue(form, 'LOGIN').toLowerCase();
        if (!credentialsOk(testUser, fieldValue(form, 'PASSWORD'))) {
          return { status: 200, result: { linkId: null, status: 'FAILED' as const, message: FAIL_MESSAGE, form: null } };
        }
        // An unfinished attempt at the same institution is replaced by this one.
        await tx.query(`UPDATE agg_links SET removed_at = now() WHERE user_id = $1 AND institution_id = $2 AND removed_at IS NULL AND status = 'MFA'`, [
          userId,
          institutionId,
        ]);
        const steps = TEST_USERS[testUser]?.steps ?? [];
        const rows = await tx.query<LinkRow>('INSERT INTO agg_links (user_id, institution_id, test_user, status) VALUES ($1, $2, $3, $4) RETURNING *', [
          userId,
          institutionId,
          testUser,
          steps.length ? 'MFA' : 'SUCCESS',
        ]);
        const link = rows.rows[0];
        if (!link) throw new Error('link');
        const first = steps[0];
        if (first) return { status: 200, result: { linkId: link.id, status: 'MFA' as const, message: first.form.label, form: first.form } };
        await openAccounts(tx, link);
        return { status: 200, result: { linkId: link.id, status: 'SUCCESS' as const, message: `${inst.name} has been linked.`, form: null } };
      });
    },

    async mfa(login: string, linkId: number, form: z.infer<typeof formSchema>): Promise<{ status: number; result?: LinkResult; error?: string }> {
      return db.transaction(async (tx) => {
        const userId = await ensureUser(tx, login);
        const link = await linkOf(tx, userId, linkId);
        if (!link) return { status: 404, error: 'The link was not found.' };
        if (link.status !== 'MFA') return { status: 409, error: 'The link is not waiting for a multi-factor answer.' };
        const steps = TEST_USERS[link.test_user]?.steps ?? [];
        const step = steps[link.mfa_step];
        if (!step) return { status: 409, error: 'The link is not waiting for a multi-factor answer.' };
        const answer = (form.fields[0]?.value ?? '').trim().toLowerCase();
        if (!answer) return { status: 400, error: 'MFA form is empty' };
        if (answer !== step.answer) return { status: 200, result: { linkId, status: 'FAILED' as const, message: MFA_FAIL_MESSAGE, form: step.form } };
        const next = steps[link.mfa_step + 1];
        if (next) {
          await setLink(tx, linkId, { status: 'MFA', mfaStep: link.mfa_step + 1 });
          return { status: 200, result: { linkId, status: 'MFA' as const, message: next.form.label, form: next.form } };
        }
        const done = await setLink(tx, linkId, { status: 'SUCCESS', mfaStep: 0 });
        await openAccounts(tx, done);
        return {
          status: 200,
          result: { linkId, status: 'SUCCESS' as const, message: `${institutionById(link.institution_id)?.name ?? 'The bank'} has been linked.`, form: null },
        };
      });
    },

    async updateCredentials(login: string, linkId: number, form: z.infer<typeof formSchema>) {
      return db.transaction(async (tx) => {
        const userId = await ensureUser(tx, login);
        const link = await linkOf(tx, userId, linkId);
        if (!link) return { status: 404, error: 'The link was not found.' };
        const wantPassword = link.test_user === 'stale' && (link.status === 'STALE' || link.stale_fixed) ? STALE_NEW_PASSWORD : TEST_PASSWORD;
        const ok = fieldValue(form, 'LOGIN').toLowerCase() === link.test_user && fieldValue(form, 'PASSWORD') === wantPassword;
        if (!ok) return { status: 200, result: { linkId, status: 'FAILED' as const, message: FAIL_MESSAGE, form: null } };
        await setLink(tx, linkId, { status: 'SUCCESS', message: null, staleFixed: link.test_user === 'stale' ? true : undefined });
        return { status: 200, result: { linkId, status: 'SUCCESS' as const, message: 'The credentials have been updated.', form: null } };
      });
    },

    async links(login: string) {
      const userId = await ensureUser(db, login);
      const links = (
        await db.query<LinkRow>('SELECT * FROM agg_links WHERE user_id = $1 AND removed_at IS NULL AND status <> $2 ORDER BY id', [userId, 'FAILED'])
      ).rows;
      const accounts = (
        await db.query<AccountRow>(
          'SELECT a.* FROM agg_accounts a JOIN agg_links l ON l.id = a.link_id WHERE l.user_id = $1 AND l.removed_at IS NULL ORDER BY a.id',
          [userId],
        )
      ).rows;
      return links.map((l) => {
        const inst = institutionById(l.institution_id);
        return {
          linkId: l.id,
          institution: inst ? toInstitution(inst, false) : null,
          status: l.status,
          message: l.status === 'STALE' ? (l.message ?? STALE_MESSAGE) : l.message,
          updatedAt: new Date(l.updated_at).toISOString(),
          accounts: accounts.filter((a) => a.link_id === l.id).map((a) => toAccount(a, l)),
        };
      });
    },

    async refresh(login: string, accountIds: number[]) {
      return db.transaction(async (tx) => {
        const userId = await ensureUser(tx, login);
        const rows = (
          await tx.query<AccountRow & { institution_id: number; status: LinkStatus; test_user: string; stale_fixed: boolean; lid: number }>(
            `SELECT a.*, l.institution_id, l.status, l.test_user, l.stale_fixed, l.id AS lid FROM agg_accounts a JOIN agg_links l ON l.id = a.link_id
             WHERE l.user_id = $1 AND l.removed_at IS NULL AND a.id = ANY($2::int[]) ORDER BY a.id`,
            [userId, accountIds],
          )
        ).rows;
        const out: { accountId: number; status: LinkStatus; message: string | null }[] = [];
        for (const a of rows) {
          if (a.status === 'STALE' || (a.test_user === 'stale' && !a.stale_fixed)) {
            await setLink(tx, a.lid, { status: 'STALE', message: STALE_MESSAGE });
            out.push({ accountId: a.id, status: 'STALE', message: STALE_MESSAGE });
            continue;
          }
          const random = stream(a.id * 104_729 + a.refresh_count + 1);
          let balance = Number(a.balance_cents);
          for (const t of newTransactions(random, today())) {
            balance += t.amountCents;
            await tx.query('INSERT INTO agg_transactions (account_id, posted_date, description, amount_cents) VALUES ($1, $2, $3, $4)', [
              a.id,
              t.date,
              t.description,
              t.amountCents,
            ]);
          }
          await tx.query('UPDATE agg_accounts SET balance_cents = $2, refresh_count = refresh_count + 1, refreshed_at = now() WHERE id = $1', [a.id, balance]);
          out.push({ accountId: a.id, status: 'SUCCESS', message: null });
        }
        return out;
      });
    },

    async remove(login: string, linkId: number) {
      const userId = await ensureUser(db, login);
      const r = await db.query('UPDATE agg_links SET removed_at = now() WHERE id = $1 AND user_id = $2 AND removed_at IS NULL', [linkId, userId]);
      return (r.affectedRows ?? 0) > 0;
    },

    async transactions(login: string, q: z.infer<typeof txQuery>) {
      const userId = await ensureUser(db, login);
      const where = ['l.user_id = $1', 'l.removed_at IS NULL'];
      const params: unknown[] = [userId];
      const add = (clause: (n: number) => string, v: unknown) => {
        params.push(v);
        where.push(clause(params.length));
      };
      if (q.accountId) add((n) => `t.account_id = $${n}`, q.accountId);
      if (q.keyword?.trim()) add((n) => `strpos(lower(t.description), lower($${n})) > 0`, q.keyword.trim());
      if (q.from) add((n) => `t.posted_date >= $${n}::date`, q.from);
      if (q.to) add((n) => `t.posted_date <= $${n}::date`, q.to);
      const from = `FROM agg_transactions t JOIN agg_accounts a ON a.id = t.account_id JOIN agg_links l ON l.id = a.link_id WHERE ${where.join(' AND ')}`;
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params)).rows[0]?.n ?? 0;
      const items = (
        await db.query<{ id: number; account_id: number; posted_date: Date | string; description: string; amount_cents: string | number }>(
          `SELECT t.id, t.account_id, t.posted_date, t.description, t.amount_cents ${from} ORDER BY t.posted_date DESC, t.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, q.limit, q.offset],
        )
      ).rows.map((t) => ({
        transactionId: t.id,
        accountId: t.account_id,
        date: typeof t.posted_date === 'string' ? t.posted_date.slice(0, 10) : t.posted_date.toISOString().slice(0, 10),
        description: t.description,
        amountCents: Number(t.amount_cents),
      }));
      return { items, total };
    },
  };
}

export function registerAggregator(app: FastifyInstance, db: PGlite, opts: AggregatorOptions = aggregatorOptionsFromEnv()): void {
  const { bad, parse } = merchantApi(app, {
    prefix: '/aggregator/api/',
    user: opts.clientId,
    secret: opts.secret,
    unauthorized: 'Invalid client credentials.',
    migrate: () => migrateAggregator(db),
  });
  const core = aggregatorCore(db);
  const answer = (reply: FastifyReply, r: { status: number; result?: LinkResult; error?: string }) =>
    r.error ? bad(reply, r.status, r.error) : reply.status(r.status).send(r.result);

  // ---- institutions ----
  app.get('/aggregator/api/institutions/popular', async () => INSTITUTIONS.filter((i) => i.popular).map((i) => toInstitution(i, false)));
  app.get('/aggregator/api/institutions', async (req, reply) => {
    const q = parse(z.object({ q: z.string().trim().min(3).max(100) }), req.query, reply);
    if (!q) return reply;
    const needle = q.q.toLowerCase();
    return INSTITUTIONS.filter((i) => i.name.toLowerCase().includes(needle))
      .slice(0, 50)
      .map((i) => toInstitution(i, false));
  });
  app.get('/aggregator/api/institutions/:id', async (req, reply) => {
    const p = parse(z.object({ id: z.coerce.number().int().positive() }), req.params, reply);
    if (!p) return reply;
    const inst = institutionById(p.id);
    return inst ? toInstitution(inst, true) : bad(reply, 404, 'The institution was not found.');
  });

  // ---- a user's links, accounts and transactions ----
  app.post('/aggregator/api/users/:user/links', async (req, reply) => {
    const p = parse(userParam, req.params, reply);
    const b = p && parse(linkBody, req.body, reply);
    if (!p || !b) return reply;
    return answer(reply, await core.link(p.user, b.institutionId, b.form));
  });
  app.post('/aggregator/api/users/:user/links/:linkId/mfa', async (req, reply) => {
    const p = parse(linkParam, req.params, reply);
    const b = p && parse(mfaBody, req.body, reply);
    if (!p || !b) return reply;
    return answer(reply, await core.mfa(p.user, p.linkId, b.form));
  });
  app.put('/aggregator/api/users/:user/links/:linkId/credentials', async (req, reply) => {
    const p = parse(linkParam, req.params, reply);
    const b = p && parse(mfaBody, req.body, reply);
    if (!p || !b) return reply;
    return answer(reply, await core.updateCredentials(p.user, p.linkId, b.form));
  });
  app.delete('/aggregator/api/users/:user/links/:linkId', async (req, reply) => {
    const p = parse(linkParam, req.params, reply);
    if (!p) return reply;
    return (await core.remove(p.user, p.linkId)) ? reply.status(204).send() : bad(reply, 404, 'The link was not found.');
  });
  app.get('/aggregator/api/users/:user/links', async (req, reply) => {
    const p = parse(userParam, req.params, reply);
    if (!p) return reply;
    return core.links(p.user);
  });
  app.post('/aggregator/api/users/:user/refresh', async (req, reply) => {
    const p = parse(userParam, req.params, reply);
    const b = p && parse(refreshBody, req.body, reply);
    if (!p || !b) return reply;
    return core.refresh(p.user, b.accountIds);
  });
  app.get('/aggregator/api/users/:user/transactions', async (req, reply) => {
    const p = parse(userParam, req.params, reply);
    const q = p && parse(txQuery, req.query, reply);
    if (!p || !q) return reply;
    return core.transactions(p.user, q);
  });
  app.post('/aggregator/api/users/:user/link-token', async (req, reply) => {
    const p = parse(userParam, req.params, reply);
    const b = p && parse(tokenBody, req.body, reply);
    if (!p || !b) return reply;
    const userId = await core.ensureUser(db, p.user);
    const token = randomBytes(24).toString('base64url');
    const rsession = randomBytes(16).toString('hex');
    await db.query('INSERT INTO agg_link_tokens (token, rsession, user_id, parent_origin, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      token,
      rsession,
      userId,
      new URL(b.parentOrigin).origin,
      new Date(Date.now() + opts.tokenTtlMs),
    ]);
    return { url: `${req.protocol}://${req.host}/aggregator/fastlink`, rsession, app: '10003600', token, extra: 'keyword=&flow=add' };
  });

  // ---- the hosted linking page (the frame, 825 px high) ----
  interface TokenRow {
    token: string;
    rsession: string;
    user_id: number;
    login_name: string;
    parent_origin: string;
  }
  const liveToken = async (token: string) =>
    (
      await db.query<TokenRow>(
        'SELECT t.token, t.rsession, t.user_id, t.parent_origin, u.login_name FROM agg_link_tokens t JOIN agg_users u ON u.id = t.user_id WHERE t.token = $1 AND t.expires_at > now()',
        [token],
      )
    ).rows[0] ?? null;
  const send = (reply: FastifyReply, status: number, html: string, ancestors: string) =>
    reply
      .status(status)
      .header(
        'content-security-policy',
        `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${ancestors}`,
      )
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(html);
  const expired = (reply: FastifyReply) => send(reply, 403, aggregatorPage({ error: 'The linking session has expired. Please reload the page.' }), "'none'");
  // Opened by a POST of token, rsession and app into the frame, as FastLink is; every step posts the token again. The
  // token is read from the body only: an address with one in it (a history entry, an access-log line) opens nothing.
  const hosted = async (req: FastifyRequest, reply: FastifyReply) => {
    // A field sent twice comes as a list: the first value counts.
    const source = Object.fromEntries(
      Object.entries(req.body && typeof req.body === 'object' ? req.body : {}).map(([k, v]) => [k, String((Array.isArray(v) ? v[0] : v) ?? '')]),
    ) as Record<string, string | undefined>;
    const t = source.token ? await liveToken(source.token) : null;
    if (!t) return expired(reply);
    const base = { token: t.token, parentOrigin: t.parent_origin };
    const step = source.step ?? '';
    const instId = Number(source.institutionId ?? 0) || null;
    const inst = instId ? institutionById(instId) : undefined;
    const submitted = {
      fields: Object.entries(source)
        .filter(([k]) => k.startsWith('f_'))
        .map(([k, v]) => ({ name: k.slice(2), value: String(v ?? '').slice(0, 200) })),
    };
    if (step === 'login' && inst) {
      const r = await core.link(t.login_name, inst.id, submitted);
      if (r.error) return send(reply, 200, aggregatorPage({ ...base, institution: inst, form: inst.form, error: r.error }), t.parent_origin);
      const res = r.result;
      if (res?.status === 'FAILED')
        return send(reply, 200, aggregatorPage({ ...base, institution: inst, form: inst.form, error: res.message }), t.parent_origin);
      if (res?.status === 'MFA' && res.form)
        return send(reply, 200, aggregatorPage({ ...base, institution: inst, form: res.form, linkId: res.linkId, note: res.message }), t.parent_origin);
      return send(reply, 200, aggregatorPage({ ...base, done: res?.message ?? 'Linked.', linkId: res?.linkId ?? null }), t.parent_origin);
    }
    if (step === 'mfa' && inst) {
      const linkId = Number(source.linkId ?? 0);
      const r = await core.mfa(t.login_name, linkId, submitted);
      if (r.error || !r.result) return send(reply, 200, aggregatorPage({ ...base, results: [], error: r.error ?? 'Failed.' }), t.parent_origin);
      const res = r.result;
      if (res.status === 'SUCCESS') return send(reply, 200, aggregatorPage({ ...base, done: res.message, linkId }), t.parent_origin);
      return send(
        reply,
        200,
        aggregatorPage({ ...base, institution: inst, form: res.form ?? inst.form, linkId, error: res.status === 'FAILED' ? res.message : undefined }),
        t.parent_origin,
      );
    }
    if (inst) return send(reply, 200, aggregatorPage({ ...base, institution: inst, form: inst.form }), t.parent_origin);
    const q = (source.q ?? '').trim();
    const results =
      q.length >= 3 ? INSTITUTIONS.filter((i) => i.name.toLowerCase().includes(q.toLowerCase())).slice(0, 20) : INSTITUTIONS.filter((i) => i.popular);
    return send(
      reply,
      200,
      aggregatorPage({ ...base, q, results, error: q && q.length < 3 ? 'Minimum 3 characters are required' : undefined }),
      t.parent_origin,
    );
  };
  app.get('/aggregator/fastlink', (_req, reply) => expired(reply));
  app.post('/aggregator/fastlink', hosted);
  app.get('/aggregator/fastlink.js', (_req, reply) =>
    reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').type('text/javascript; charset=utf-8').send(AGGREGATOR_SCRIPT),
  );
}
