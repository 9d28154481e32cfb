import { createHmac, timingSafeEqual } from 'node:crypto';
import { hasNumbers, hasStrings, isRecord, type ProviderErrors, providerCall } from './http';

/**
 * The card gateway our payment service runs on (Authorize.net-like). Card numbers stay at the gateway: we hold
 * customer and payment profile ids and the last four digits only. SandboxPaymentGateway talks to the sandbox over
 * HTTP; a production adapter (Authorize.net's JSON API) implements the same interface.
 */
export interface GatewayPaymentProfile {
  paymentProfileId: number;
  /** Masked by the gateway: 'XXXX1111'. */
  cardNumber: string;
  last4: string;
  cardType: string;
  /** MM/YYYY. */
  expiration: string;
  isDefault: boolean;
}

export interface GatewaySubscription {
  subscriptionId: number;
  customerProfileId: number;
  paymentProfileId: number;
  name: string;
  /** 1 monthly, 12 yearly, 0 lifetime (a single charge). */
  intervalMonths: number;
  amountCents: number;
  status: string;
  nextChargeAt: string | null;
}

export interface GatewayCustomer {
  customerProfileId: number;
  merchantCustomerId: string;
  paymentProfiles: GatewayPaymentProfile[];
  subscriptions: GatewaySubscription[];
}

export interface GatewayTransaction {
  transId: number;
  type: string;
  status: string;
  /** '1' approved, '2' declined, '3' error, '4' held for review by the gateway's fraud filters. */
  responseCode: '1' | '2' | '3' | '4';
  message: string;
  authCode: string | null;
  amountCents: number;
  customerProfileId: number | null;
  paymentProfileId: number | null;
  refTransId: number | null;
  subscriptionId: number | null;
  submittedAt: string;
  settledAt: string | null;
}

export type TransactionRequest =
  | { type: 'authOnly' | 'authCapture'; customerProfileId: number; paymentProfileId: number; amountCents: number; description?: string }
  | { type: 'priorAuthCapture'; refTransId: number; amountCents?: number }
  | { type: 'refund'; refTransId: number; amountCents?: number }
  | { type: 'void'; refTransId: number };

export interface HostedFormToken {
  token: string;
  /** The hosted form's address (add or edit payment); open it with ?token=. */
  url: string;
  expiresAt: string;
}

export interface WebhookEvent {
  notificationId: string;
  eventType: string;
  eventDate: string;
  payload: {
    responseCode: number;
    id: string;
    subscriptionId: string | null;
    customerProfileId: number | null;
    paymentProfileId: number | null;
    authAmount: number;
    message: string;
  };
}

/** A refusal by the gateway (4xx): its message is meant for people. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The gateway could not be reached or failed (network error, timeout, 5xx): nothing is known to have happened. */
export class GatewayUnavailableError extends Error {}

export interface PaymentGateway {
  readonly kind: string;
  /** The origin the browser loads the hosted card form from (the CSP frame-src of the page that embeds it). */
  readonly formOrigin: string;
  /** Creates the customer profile for our customer id, or returns the existing one. */
  ensureCustomer(merchantCustomerId: string, email?: string): Promise<number>;
  getCustomer(customerProfileId: number): Promise<GatewayCustomer>;
  setDefaultProfile(customerProfileId: number, paymentProfileId: number): Promise<void>;
  deleteProfile(customerProfileId: number, paymentProfileId: number): Promise<void>;
  /** A short-lived token for the hosted form; returnUrl's origin is the only one the form talks to. */
  hostedFormToken(input: { customerProfileId: number; paymentProfileId?: number; returnUrl: string }): Promise<HostedFormToken>;
  /** A transaction; the same idempotency key never charges twice. Declines are answers, not errors. */
  transaction(request: TransactionRequest, idempotencyKey: string): Promise<GatewayTransaction>;
  getTransaction(transId: number): Promise<GatewayTransaction>;
  /**
   * Approves or declines a transaction held for review (response code 4). The same decision again answers the
   * transaction as it is, so a retried call decides once.
   */
  reviewHeld(transId: number, action: 'approve' | 'decline'): Promise<GatewayTransaction>;
  listTransactions(customerProfileId: number): Promise<GatewayTransaction[]>;
  createSubscription(
    input: { customerProfileId: number; paymentProfileId: number; name: string; intervalMonths: 0 | 1 | 12; amountCents: number },
    idempotencyKey: string,
  ): Promise<{ subscription: GatewaySubscription; transaction: GatewayTransaction }>;
  /**
   * A subscription whose first payment is on a later day (ARB's paymentSchedule.startDate, 'YYYY-MM-DD' after today):
   * nothing is charged now. The same idempotency key creates it once. Monthly or yearly only.
   */
  scheduleSubscription(
    input: { customerProfileId: number; paymentProfileId: number; name: string; intervalMonths: 1 | 12; amountCents: number; startDate: string },
    idempotencyKey: string,
  ): Promise<GatewaySubscription>;
  getSubscription(subscriptionId: number): Promise<GatewaySubscription>;
  updateSubscription(subscriptionId: number, change: { paymentProfileId?: number; amountCents?: number }): Promise<GatewaySubscription>;
  cancelSubscription(subscriptionId: number): Promise<GatewaySubscription>;
  /** Registers the address the gateway posts signed webhooks to (idempotent). */
  registerWebhook(url: string): Promise<void>;
  /** Checks a webhook's X-ANET-Signature against the raw body. */
  verifyWebhook(rawBody: string, signature: string | undefined): boolean;
}

export interface SandboxGatewayConfig {
  sandboxUrl: string;
  loginId: string;
  transactionKey: string;
  signatureKey: string;
}

const GATEWAY_CREDENTIALS = ['GATEWAY_LOGIN_ID', 'GATEWAY_TRANSACTION_KEY', 'GATEWAY_SIGNATURE_KEY'] as const;

/**
 * The sandbox merchant's published credentials (the sandbox gateway's defaults too), as environment variables: the
 * defaults outside production, and what a production-mode run against the sandbox (the benchmarks) sets explicitly.
 */
export const SANDBOX_GATEWAY_ENV: Readonly<Record<(typeof GATEWAY_CREDENTIALS)[number], string>> = {
  GATEWAY_LOGIN_ID: 'sandbox-merchant',
  GATEWAY_TRANSACTION_KEY: 'sandbox-transaction-key',
  GATEWAY_SIGNATURE_KEY: 'sandbox-signature-key',
};

/**
 * GATEWAY_LOGIN_ID, GATEWAY_TRANSACTION_KEY, GATEWAY_SIGNATURE_KEY: the same names and defaults the sandbox reads. The
 * defaults are the sandbox merchant's, for development, tests and demos: with NODE_ENV=production a missing one stops
 * the start (an Error naming them), so a deployment cannot take card payments or trust webhooks under the sandbox's
 * published keys by leaving one out.
 */
export function gatewayConfigFromEnv(sandboxUrl: string, env: NodeJS.ProcessEnv = process.env): SandboxGatewayConfig {
  const missing = GATEWAY_CREDENTIALS.filter((name) => !env[name]);
  if (env.NODE_ENV === 'production' && missing.length > 0)
    throw new Error(`${missing.join(', ')} must be set when NODE_ENV is production: the card gateway's defaults are the sandbox merchant's published keys`);
  return {
    sandboxUrl,
    loginId: env.GATEWAY_LOGIN_ID || SANDBOX_GATEWAY_ENV.GATEWAY_LOGIN_ID,
    transactionKey: env.GATEWAY_TRANSACTION_KEY || SANDBOX_GATEWAY_ENV.GATEWAY_TRANSACTION_KEY,
    signatureKey: env.GATEWAY_SIGNATURE_KEY || SANDBOX_GATEWAY_ENV.GATEWAY_SIGNATURE_KEY,
  };
}

export function signWebhook(signatureKey: string, rawBody: string): string {
  return `sha512=${createHmac('sha512', signatureKey).update(rawBody, 'utf8').digest('hex').toUpperCase()}`;
}

/**
 * The fields our records are written from: an answer without them is unreadable (the gateway may have acted: the
 * caller says "try again later" and the retry, with the same idempotency key, gets the transaction as it is).
 */
const RESPONSE_CODES = new Set(['1', '2', '3', '4']);
const isTransaction = (d: unknown) =>
  hasNumbers(d, 'transId', 'amountCents') && hasStrings(d, 'status') && RESPONSE_CODES.has((d as { responseCode?: string }).responseCode ?? '');
const isSubscription = (d: unknown) => hasNumbers(d, 'subscriptionId', 'amountCents') && hasStrings(d, 'status');
const isCustomer = (d: unknown) =>
  hasNumbers(d, 'customerProfileId') && Array.isArray((d as GatewayCustomer).paymentProfiles) && Array.isArray((d as GatewayCustomer).subscriptions);

const ERRORS: ProviderErrors = {
  name: 'card gateway',
  refused: (status, message) => new GatewayError(status, message),
  unavailable: (message) => new GatewayUnavailableError(message),
};

export class SandboxPaymentGateway implements PaymentGateway {
  readonly kind = 'sandbox';
  readonly formOrigin: string;
  private readonly base: string;
  private readonly auth: string;
  constructor(private readonly cfg: SandboxGatewayConfig) {
    this.base = `${cfg.sandboxUrl.replace(/\/$/, '')}/gateway/api`;
    this.formOrigin = new URL(cfg.sandboxUrl).origin;
    this.auth = `Basic ${Buffer.from(`${cfg.loginId}:${cfg.transactionKey}`).toString('base64')}`;
  }

  private call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, valid?: (data: unknown) => boolean): Promise<T> {
    return providerCall<T>(ERRORS, `${this.base}${path}`, this.auth, method, body, headers, valid);
  }

  async ensureCustomer(merchantCustomerId: string, email?: string): Promise<number> {
    const r = await this.call<{ customerProfileId: number }>('POST', '/customers', { merchantCustomerId, email }, {}, (d) =>
      hasNumbers(d, 'customerProfileId'),
    );
    return r.customerProfileId;
  }
  getCustomer(id: number) {
    return this.call<GatewayCustomer>('GET', `/customers/${id}`, undefined, {}, isCustomer);
  }
  async setDefaultProfile(customerProfileId: number, paymentProfileId: number) {
    await this.call('POST', `/customers/${customerProfileId}/payment-profiles/${paymentProfileId}/default`, {});
  }
  async deleteProfile(customerProfileId: number, paymentProfileId: number) {
    await this.call('DELETE', `/customers/${customerProfileId}/payment-profiles/${paymentProfileId}`);
  }
  hostedFormToken(input: { customerProfileId: number; paymentProfileId?: number; returnUrl: string }) {
    return this.call<HostedFormToken>('POST', '/hosted-tokens', { ...input, billingAddressOptions: 'showNone', manageOptions: 'showAll' }, {}, (d) =>
      hasStrings(d, 'token', 'url'),
    );
  }
  transaction(request: TransactionRequest, idempotencyKey: string) {
    return this.call<GatewayTransaction>('POST', '/transactions', request, { 'idempotency-key': idempotencyKey }, isTransaction);
  }
  getTransaction(transId: number) {
    return this.call<GatewayTransaction>('GET', `/transactions/${transId}`, undefined, {}, isTransaction);
  }
  reviewHeld(transId: number, action: 'approve' | 'decline') {
    return this.call<GatewayTransaction>('POST', `/transactions/${transId}/review`, { action }, {}, isTransaction);
  }
  listTransactions(customerProfileId: number) {
    return this.call<GatewayTransaction[]>(
      'GET',
      `/customers/${customerProfileId}/transactions`,
      undefined,
      {},
      (d) => Array.isArray(d) && d.every(isTransaction),
    );
  }
  createSubscription(
    input: { customerProfileId: number; paymentProfileId: number; name: string; intervalMonths: 0 | 1 | 12; amountCents: number },
    idempotencyKey: string,
  ) {
    return this.call<{ subscription: GatewaySubscription; transaction: GatewayTransaction }>(
      'POST',
      '/subscriptions',
      input,
      { 'idempotency-key': idempotencyKey },
      (d) => isRecord(d) && isSubscription(d.subscription) && isTransaction(d.transaction),
    );
  }
  async scheduleSubscription(
    input: { customerProfileId: number; paymentProfileId: number; name: string; intervalMonths: 1 | 12; amountCents: number; startDate: string },
    idempotencyKey: string,
  ) {
    const r = await this.call<{ subscription: GatewaySubscription }>(
      'POST',
      '/subscriptions',
      input,
      { 'idempotency-key': idempotencyKey },
      (d) => isRecord(d) && isSubscription(d.subscription) && d.transaction === null,
    );
    return r.subscription;
  }
  getSubscription(id: number) {
    return this.call<GatewaySubscription>('GET', `/subscriptions/${id}`, undefined, {}, isSubscription);
  }
  updateSubscription(id: number, change: { paymentProfileId?: number; amountCents?: number }) {
    return this.call<GatewaySubscription>('PUT', `/subscriptions/${id}`, change, {}, isSubscription);
  }
  cancelSubscription(id: number) {
    return this.call<GatewaySubscription>('POST', `/subscriptions/${id}/cancel`, {}, {}, isSubscription);
  }
  async registerWebhook(url: string) {
    await this.call('POST', '/webhooks', { url });
  }
  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    if (!signature) return false;
    const want = Buffer.from(signWebhook(this.cfg.signatureKey, rawBody));
    const given = Buffer.from(
      signature
        .trim()
        .replace(/^sha512=/i, 'sha512=')
        .replace(/=([0-9a-f]+)$/i, (_m, hex: string) => `=${hex.toUpperCase()}`),
    );
    return given.length === want.length && timingSafeEqual(given, want);
  }
}

export function createPaymentGateway(sandboxUrl: string, env: NodeJS.ProcessEnv = process.env): PaymentGateway {
  return new SandboxPaymentGateway(gatewayConfigFromEnv(sandboxUrl, env));
}
