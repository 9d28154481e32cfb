import type { StartedServer } from '@portal/app-server/server';
import { createSandbox } from '@portal/sandbox';
import { signWebhook } from '@portal/server/kernel';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { BillingApi } from '../contract';
import { type ProviderProxy, startProviderProxy } from './test-proxy';

/** The sandbox gateway's merchant, as its defaults and the API's have it; tickMs 0: no batch or renewal runs by itself. */
export const SANDBOX_GATEWAY = { loginId: 'sandbox-merchant', transactionKey: 'sandbox-transaction-key', signatureKey: 'sandbox-signature-key', tickMs: 0 };
/** The merchant's authorization for the sandbox gateway's own API (what a test reads at the gateway). */
export const GATEWAY_BASIC = `Basic ${Buffer.from(`${SANDBOX_GATEWAY.loginId}:${SANDBOX_GATEWAY.transactionKey}`).toString('base64')}`;

/** One call to our API as a signed-in user: a GET, or a POST when it has a body; on the card site unless `brand` says. */
export type StackCall = { method?: 'GET' | 'POST'; body?: unknown; session: Session; brand?: string };

export interface BillingStack {
  sandbox: FastifyInstance;
  /** The sandbox's own address (the gateway a test reads, the hosted form's calls). */
  sandboxUrl: string;
  /** With `proxy`: the failure-injecting proxy the API reaches the sandbox through. */
  proxy: ProviderProxy | null;
  server: StartedServer & { dropDatabase(): Promise<void> };
  /** Calls our API (StackCall); answers the response. */
  call(path: string, o: StackCall): Promise<LightMyRequestResponse>;
  /** Calls our API and answers its Data; any status but 200 throws, naming the path, the status and the body. */
  data<T>(path: string, o: StackCall): Promise<T>;
  /** Reads the sandbox gateway's API (`/gateway/api<path>`) as the merchant. */
  gateway<T>(path: string, method?: string): Promise<T>;
  /**
   * Posts a form of the gateway's merchant screen (`/gateway/merchant/<path>`, e.g. `held/12/approve`,
   * `transactions/12/void`) as the merchant's browser does: signed in, from the screen's own origin.
   */
  merchantScreen(path: string): Promise<Response>;
  /**
   * The bodies (as signed) of the webhooks the sandbox gateway sent the merchant's address, of one of `eventTypes`
   * about one of the gateway transactions `transIds`, oldest first.
   */
  sentWebhooks(eventTypes: readonly string[], transIds: readonly number[]): Promise<string[]>;
  /**
   * Adds coupons to the coupons plugin's table: lifetime memberships of the Amethyst product, Active, from 2020-01-01
   * with no end, unless a coupon says otherwise.
   */
  addCoupons(coupons: readonly TestCoupon[]): Promise<void>;
  /** Makes a CareSupport user of the staff site named `userName` and signs them in: support's session. */
  signInStaff(userName: string): Promise<Session>;
  /** Posts a webhook body to our endpoint as the gateway does: signed with the merchant's key unless `signature` says. */
  webhook(raw: string, signature?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A coupon a test adds (BillingStack.addCoupons): its code, and what differs from the usual lifetime coupon. */
export interface TestCoupon {
  code: string;
  product?: string;
  start?: string;
  end?: string | null;
  status?: 'Active' | 'Inactive';
}

type StackOptions = {
  proxy?: boolean;
  sites?: string[];
  beforeListen?: (sandbox: FastifyInstance) => void;
  /** The server's logger (pino options: a level and a stream), to read what it logs; none when not given. */
  logger?: object;
};

/**
 * Test support: billing's test stack over real HTTP. The sandbox (with the merchant above) listening on a free port,
 * `beforeListen` given it first (hooks, e.g. gatewayHolds' install); with `proxy`, a ProviderProxy in front of it; and
 * a test server whose sandboxUrl is the proxy's or the sandbox's, sending no mail, serving stand-ins of `sites`.
 */
export async function startBillingStack(opts: StackOptions & { proxy: true }): Promise<BillingStack & { proxy: ProviderProxy }>;
export async function startBillingStack(opts?: StackOptions): Promise<BillingStack>;
export async function startBillingStack(opts: StackOptions = {}): Promise<BillingStack> {
  const sandbox = await createSandbox({ dataDir: null, gateway: SANDBOX_GATEWAY });
  opts.beforeListen?.(sandbox);
  const sandboxUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const proxy = opts.proxy ? await startProviderProxy(sandboxUrl) : null;
  const server = await startTestServer(
    { sandboxUrl: proxy?.url ?? sandboxUrl, smtpUrl: null },
    { ...(opts.sites ? { sites: opts.sites } : {}), ...(opts.logger ? { logger: opts.logger } : {}) },
  );
  const gateway = async <T>(path: string, method = 'GET') =>
    (await (await fetch(`${sandboxUrl}/gateway/api${path}`, { method, headers: { authorization: GATEWAY_BASIC } })).json()) as T;
  const call = (path: string, o: StackCall) =>
    server.app.inject({
      method: o.method ?? (o.body === undefined ? 'GET' : 'POST'),
      url: path,
      headers: authHeaders(o.session, o.brand ?? 'card'),
      payload: o.body as object,
    });
  return {
    sandbox,
    sandboxUrl,
    proxy,
    server,
    call,
    async data<T>(path: string, o: StackCall) {
      const res = await call(path, o);
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      return res.json().Data as T;
    },
    gateway,
    merchantScreen: (path: string) =>
      fetch(`${sandboxUrl}/gateway/merchant/${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { authorization: GATEWAY_BASIC, origin: new URL(sandboxUrl).origin },
      }),
    async sentWebhooks(eventTypes: readonly string[], transIds: readonly number[]) {
      const ids = new Set(transIds.map(String));
      return (await gateway<{ eventType: string; body: string }[]>('/webhooks/deliveries'))
        .filter((d) => eventTypes.includes(d.eventType) && ids.has((JSON.parse(d.body) as { payload: { id: string } }).payload.id))
        .map((d) => d.body);
    },
    async addCoupons(coupons: readonly TestCoupon[]) {
      for (const c of coupons) {
        await server.database.sql.query(
          `INSERT INTO coupons (code, product, membership_type, discount_type, start_date, end_date, status)
           VALUES ($1, $2, 'Lifetime Membership', 'Lifetime', $3, $4, $5)`,
          [c.code, c.product ?? 'Amethyst', c.start ?? '2020-01-01', c.end ?? null, c.status ?? 'Active'],
        );
      }
    },
    async signInStaff(userName: string) {
      await makeUser(server, { userName, roles: ['CareSupport'], brand: 'staff' });
      return signIn(server, userName);
    },
    webhook: (raw: string, signature = signWebhook(SANDBOX_GATEWAY.signatureKey, raw)) =>
      server.app.inject({
        method: 'POST',
        url: BillingApi.webhook.path,
        headers: { host: 'staff.localhost', 'content-type': 'application/json', 'x-anet-signature': signature },
        payload: raw,
      }),
    async close() {
      await server.close();
      await proxy?.close();
      await sandbox.close();
    },
  };
}

/**
 * Saves a card through the hosted card form's own call, as its script does in the member's browser (the number goes
 * to the sandbox, never to our API), with the form token our API handed out. Answers the sandbox's response.
 */
export const saveCardAtGateway = (sandboxUrl: string, token: string, cardNumber: string, expiry = '12/30') =>
  fetch(`${sandboxUrl}/customer/api/save`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, cardNumber, expiry, cvv: '123' }),
  });
