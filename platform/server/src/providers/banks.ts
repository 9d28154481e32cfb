import { hasNumbers, isRecord, type ProviderErrors, providerCall } from './http';
/**
 * The bank aggregator our finance service runs on (Yodlee FastLink / Plaid Link-like): institutions with their
 * login forms as data, links (provider accounts) made with the member's bank credentials, multi-factor steps,
 * accounts with balances and transactions, refreshes and credential updates. The credentials go to the aggregator
 * and stay there: we hold the aggregator's ids only. SandboxBankAggregator talks to the sandbox over HTTP; a
 * production adapter (Yodlee's or Plaid's API) implements the same interface.
 */

export interface BankFormField {
  id?: string;
  /** The field's key: LOGIN, PASSWORD, PIN, ANSWER, TOKEN, IMAGE ... */
  name: string;
  label: string;
  type: 'text' | 'password' | 'option';
  value: string;
  options?: { label: string; value: string }[];
  maxLength?: number;
}

export interface BankForm {
  formId: string;
  label: string;
  /** 'login' for an institution's sign-in form; 'question', 'code' or 'choice' for a multi-factor step. */
  formType: 'login' | 'question' | 'code' | 'choice';
  fields: BankFormField[];
}

export interface BankInstitution {
  institutionId: number;
  name: string;
  url: string;
  favicon: string;
  logo: string;
  popular: boolean;
  /** The login form: present when the institution is read on its own. */
  form: BankForm | null;
}

/** SUCCESS, FAILED, MFA (answer `form` next) or STALE (the credentials need an update). */
export type BankLinkStatus = 'SUCCESS' | 'FAILED' | 'MFA' | 'STALE';

export interface BankLinkResult {
  /** The provider account id; null when the login failed before a link existed. */
  linkId: number | null;
  status: BankLinkStatus;
  message: string;
  form: BankForm | null;
}

export interface BankAccount {
  accountId: number;
  linkId: number;
  institutionId: number;
  name: string;
  accountType: string;
  numberLast4: string;
  balanceCents: number;
  refreshedAt: string;
  linkStatus: BankLinkStatus;
}

export interface BankLink {
  linkId: number;
  institution: BankInstitution | null;
  status: BankLinkStatus;
  message: string | null;
  updatedAt: string;
  accounts: BankAccount[];
}

export interface BankTransaction {
  transactionId: number;
  accountId: number;
  /** YYYY-MM-DD */
  date: string;
  description: string;
  /** Signed: debits negative. */
  amountCents: number;
}

export interface BankTransactionFilter {
  accountId?: number;
  keyword?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

/** What the hosted linking page needs (FastLink's url, rsession, app, token and extra parameters). */
export interface BankLinkToken {
  url: string;
  rsession: string;
  app: string;
  token: string;
  extra: string;
}

/** The aggregator refused (4xx): its message is meant for people. `status` 409 is a duplicate link. */
export class BankAggregatorError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The aggregator could not be reached or failed (network error, timeout, 5xx). */
export class BankAggregatorUnavailableError extends Error {}

export interface BankAggregator {
  readonly kind: string;
  /** The origin the browser loads the hosted linking page from (the CSP frame-src of the pages that embed it). */
  readonly linkOrigin: string;
  popular(): Promise<BankInstitution[]>;
  /** Institutions whose name holds the text (3 characters or more). */
  search(text: string): Promise<BankInstitution[]>;
  /** One institution with its login form. */
  institution(institutionId: number): Promise<BankInstitution>;
  /** `user` is our id of the member at the aggregator (one aggregator user per member). */
  link(user: string, institutionId: number, form: { fields: { name: string; value: string }[] }): Promise<BankLinkResult>;
  answerMfa(user: string, linkId: number, form: { fields: { name: string; value: string }[] }): Promise<BankLinkResult>;
  updateCredentials(user: string, linkId: number, form: { fields: { name: string; value: string }[] }): Promise<BankLinkResult>;
  removeLink(user: string, linkId: number): Promise<void>;
  links(user: string): Promise<BankLink[]>;
  /** Refreshes the accounts now (slow at a real aggregator: call it from a job). */
  refresh(user: string, accountIds: number[]): Promise<{ accountId: number; status: BankLinkStatus; message: string | null }[]>;
  transactions(user: string, filter: BankTransactionFilter): Promise<{ items: BankTransaction[]; total: number }>;
  /** A token for the hosted linking page; parentOrigin is the only origin that page may be framed by and talks to. */
  linkToken(user: string, parentOrigin: string): Promise<BankLinkToken>;
}

export interface SandboxAggregatorConfig {
  sandboxUrl: string;
  clientId: string;
  secret: string;
}

/** AGGREGATOR_CLIENT_ID and AGGREGATOR_SECRET: the same names and defaults the sandbox reads. */
export function aggregatorConfigFromEnv(sandboxUrl: string, env: NodeJS.ProcessEnv = process.env): SandboxAggregatorConfig {
  return { sandboxUrl, clientId: env.AGGREGATOR_CLIENT_ID || 'sandbox-finance', secret: env.AGGREGATOR_SECRET || 'sandbox-finance-secret' };
}

const ERRORS: ProviderErrors = {
  name: 'bank aggregator',
  refused: (status, message) => new BankAggregatorError(status, message),
  unavailable: (message) => new BankAggregatorUnavailableError(message),
};

export class SandboxBankAggregator implements BankAggregator {
  readonly kind = 'sandbox';
  readonly linkOrigin: string;
  private readonly base: string;
  private readonly auth: string;
  constructor(cfg: SandboxAggregatorConfig) {
    this.base = `${cfg.sandboxUrl.replace(/\/$/, '')}/aggregator/api`;
    this.linkOrigin = new URL(cfg.sandboxUrl).origin;
    this.auth = `Basic ${Buffer.from(`${cfg.clientId}:${cfg.secret}`).toString('base64')}`;
  }

  /** Every answer we use is a list or an object (`valid` narrows it further): anything else is unreadable. */
  private call<T>(method: string, path: string, body?: unknown, valid: (data: unknown) => boolean = isRecord): Promise<T> {
    return providerCall<T>(ERRORS, `${this.base}${path}`, this.auth, method, body, {}, valid);
  }

  private u = (user: string) => `/users/${encodeURIComponent(user)}`;

  popular() {
    return this.call<BankInstitution[]>('GET', '/institutions/popular', undefined, Array.isArray);
  }
  search(text: string) {
    return this.call<BankInstitution[]>('GET', `/institutions?q=${encodeURIComponent(text)}`, undefined, Array.isArray);
  }
  institution(id: number) {
    return this.call<BankInstitution>('GET', `/institutions/${id}`);
  }
  link(user: string, institutionId: number, form: { fields: { name: string; value: string }[] }) {
    return this.call<BankLinkResult>('POST', `${this.u(user)}/links`, {
      institutionId,
      form: { fields: form.fields.map(({ name, value }) => ({ name, value })) },
    });
  }
  answerMfa(user: string, linkId: number, form: { fields: { name: string; value: string }[] }) {
    return this.call<BankLinkResult>('POST', `${this.u(user)}/links/${linkId}/mfa`, {
      form: { fields: form.fields.map(({ name, value }) => ({ name, value })) },
    });
  }
  updateCredentials(user: string, linkId: number, form: { fields: { name: string; value: string }[] }) {
    return this.call<BankLinkResult>('PUT', `${this.u(user)}/links/${linkId}/credentials`, {
      form: { fields: form.fields.map(({ name, value }) => ({ name, value })) },
    });
  }
  async removeLink(user: string, linkId: number) {
    // Answered with no body or any: nothing of it is used.
    await this.call('DELETE', `${this.u(user)}/links/${linkId}`, undefined, () => true);
  }
  links(user: string) {
    return this.call<BankLink[]>('GET', `${this.u(user)}/links`, undefined, Array.isArray);
  }
  refresh(user: string, accountIds: number[]) {
    return this.call<{ accountId: number; status: BankLinkStatus; message: string | null }[]>('POST', `${this.u(user)}/refresh`, { accountIds }, Array.isArray);
  }
  transactions(user: string, f: BankTransactionFilter) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== '') q.set(k, String(v));
    return this.call<{ items: BankTransaction[]; total: number }>(
      'GET',
      `${this.u(user)}/transactions?${q}`,
      undefined,
      (d) => hasNumbers(d, 'total') && Array.isArray((d as { items?: unknown }).items),
    );
  }
  linkToken(user: string, parentOrigin: string) {
    return this.call<BankLinkToken>('POST', `${this.u(user)}/link-token`, { parentOrigin });
  }
}

export function createBankAggregator(sandboxUrl: string, env: NodeJS.ProcessEnv = process.env): BankAggregator {
  return new SandboxBankAggregator(aggregatorConfigFromEnv(sandboxUrl, env));
}
