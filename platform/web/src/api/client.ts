import {
  ACCESS_TOKEN_TYPE,
  buildPath,
  buildQuery,
  type Download,
  type Endpoint,
  type EndpointData,
  type EndpointInput,
  Headers as H,
  isEnvelope,
  KernelApi,
  type NoInput,
  TOKEN_EXCHANGE_GRANT,
  type TokenResponse,
} from '@portal/core';
import { MAX_RETRIES, shouldRefresh } from '../session/refresh-policy';
import type { SessionStore } from '../session/storage';
import { ApiCallError, SessionEndedError } from './errors';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** JSON body. */
  body?: unknown;
  /** Form-encoded body (the /token and registration calls). */
  form?: Record<string, string>;
  query?: Record<string, unknown>;
  /**
   * Per-request switch for toasts from MsgText and errors (default on). A function is asked of each failure whether to
   * toast it: a page that says some failures in place (a stale save's notice) and leaves the rest to the toast.
   */
  notify?: boolean | ((failure: ApiCallError) => boolean);
  /**
   * Gets a successful answer's MsgText (spec 01 section 7: shown as success by HasError), for a page that says it in
   * place (with `notify: false`, instead of the toast).
   */
  onMessage?: (message: string) => void;
  /** Search and price look-ups skip the loading bar. */
  skipLoadingBar?: boolean;
  /** 'blob' for file downloads: resolves to the blob and its file name (x-filename, default 'export'). */
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
  /** Acts for this member on this request only (checking a member before impersonating them). */
  impersonate?: number;
  /** Raw bytes ('binary' endpoints: an upload chunk), sent as application/octet-stream. */
  binary?: Blob;
  /** Bytes of the body sent so far, as the browser reports them (binary bodies; the request then goes by XMLHttpRequest). */
  onUploadProgress?: (sent: number, total: number) => void;
  /**
   * How long a JSON call waits for the server's answer before it fails as a server not reached (default
   * ANSWER_TIMEOUT_MS). File downloads and uploads have none: their time grows with their size.
   */
  timeoutMs?: number;
}

/** A JSON call whose answer has not begun after this long fails (status 0), so a save that hangs does not spin forever. */
export const ANSWER_TIMEOUT_MS = 60_000;

/** The signal of one attempt: the caller's, and a deadline for the answer; `expired` tells the two aborts apart. */
function answerDeadline(outer: AbortSignal | undefined, ms: number) {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  const follow = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    /** The answer began (or the call failed): no deadline any more; the caller's stop still stops it. */
    clear: () => clearTimeout(timer),
  };
}

export interface ClientHooks {
  /**
   * A toast. `failure`: the failure of a read (GET), which a query may ask again for (retryQuery): the shell then holds
   * the toast back for the retry's own outcome (api/notices.ts).
   */
  notify(kind: ToastKind, message: string, failure?: ApiCallError): void;
  /** The session could not be refreshed: tokens are cleared; the shell goes to /login. */
  sessionEnded(): void;
  loading(delta: 1 | -1): void;
  /** The impersonated member id, if any. */
  impersonatedMemberId(): number | null;
  /**
   * The words for a failure the server did not word (an answer that is no envelope: a proxy's 502), or, for status
   * 0, for a server that could not be reached; in the user's language. English when not given. `dataCall`: a finance
   * or e-mail call, which the spec words 'Error while getting data from server' (spec 01 section 8).
   */
  failed?(status: number, dataCall: boolean): string;
}

/** The finance and e-mail services' calls (/config's FinanceUrl and EmailUrl). */
const DATA_CALL = /^\/api\/(finance|email)\//;
export const DATA_CALL_FAILED = 'Error while getting data from server';
const failedInEnglish = (status: number, dataCall: boolean) =>
  dataCall
    ? DATA_CALL_FAILED
    : status
      ? `The request failed (${status}). Please try again.`
      : 'The server could not be reached. Check your connection and try again.';

/** x-filename carries non-ASCII characters percent-encoded (the server's sendDownload); a malformed one is kept as sent. */
export function decodeFileName(value: string | null): string | null {
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A form-encoded body: every defined field as text. */
function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
}

/**
 * A read answered 503 with Retry-After (the database busy or failing over) is asked again once after that wait, up to
 * this many seconds, before the user is told: a blip of a second or two then goes unnoticed.
 */
export const BUSY_RETRY_MAX_SECONDS = 5;

/** Waits ms, or rejects as the call is stopped (a signal stopped before the wait is caught by the next fetch). */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const randomId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export type { Download };

/** Per-call options of api.call: everything but what the endpoint itself decides (method, body, encoding). */
export type CallOptions = Omit<RequestOptions, 'method' | 'body' | 'form' | 'query' | 'responseType' | 'binary'>;

/**
 * The API client: bearer token, anti-forgery, no-cache, session and request ids, impersonation;
 * envelope handling; token refresh with a shared in-flight refresh that buffers concurrent calls.
 */
export class ApiClient {
  /** One id per page load. */
  readonly sessionId = randomId();
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly session: SessionStore,
    private readonly hooks: ClientHooks,
    private readonly fetchImpl: typeof fetch = (...a) => fetch(...a),
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void> = pause,
  ) {}

  /**
   * Calls one endpoint of a contract: fills and encodes its path parameters, sends its query and its body
   * (JSON or form-encoded, as the contract says) and resolves to the answer's typed Data (a Download for a
   * file answer).
   */
  async call<E extends Endpoint>(
    endpoint: E,
    ...args: NoInput<E> extends true ? [input?: EndpointInput<E>, opts?: CallOptions] : [input: EndpointInput<E>, opts?: CallOptions]
  ): Promise<EndpointData<E>> {
    const [input, opts = {}] = args as [{ params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } | undefined, CallOptions?];
    const url = buildPath(endpoint.path, input?.params);
    const form = endpoint.bodyEncoding === 'form' && input?.body !== undefined ? formFields(input.body) : undefined;
    const binary = endpoint.bodyEncoding === 'binary' ? (input?.body as Blob) : undefined;
    return this.request<EndpointData<E>>(url, {
      ...opts,
      method: endpoint.method,
      query: input?.query,
      body: form || binary ? undefined : input?.body,
      form,
      binary,
      responseType: endpoint.answer === 'file' ? 'blob' : 'json',
    });
  }

  /** POST /token with the password grant; stores the tokens. Errors carry the server's error_description. */
  async signIn(userName: string, password: string): Promise<void> {
    const tokens = await this.tokenCall({ grant_type: 'password', UserName: userName, Password: password });
    // Signing in over a live session (another user on the same tab): that session ends, on the server too, and nothing
    // it stored (its registration step, its read position) carries over to the new one.
    if (this.session.tokens()) {
      // Straight to the server (no refresh, no session-ended handling): an old session already gone is simply dropped.
      await this.fetchImpl(KernelApi.signout.path, { method: 'POST', headers: this.headers({}) }).catch(() => {});
      this.session.clear();
    }
    this.session.saveTokens(tokens, this.now());
  }

  /**
   * POST /token with the token-exchange grant: a token handed over in the address (/activated/, /t/) becomes this tab's
   * own session, whose tokens are stored (refresh and anti-forgery included); the handed one is spent. Errors carry
   * the server's error_description (shown as a toast).
   */
  async exchange(handedAccessToken: string): Promise<void> {
    const tokens = await this.tokenCall({ grant_type: TOKEN_EXCHANGE_GRANT, subject_token: handedAccessToken, subject_token_type: ACCESS_TOKEN_TYPE });
    this.session.saveTokens(tokens, this.now());
  }

  /** Refreshes once for all callers at the same moment; a refused refresh clears the tokens. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const refreshToken = this.session.tokens()?.refreshToken;
      if (!refreshToken) throw new SessionEndedError();
      try {
        const tokens = await this.tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken }, false);
        this.session.saveTokens(tokens, this.now());
      } catch (e) {
        this.session.clear();
        throw e instanceof SessionEndedError ? e : new SessionEndedError((e as Error).message);
      }
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** A failure's toast; a read's comes with its failure, which a query may ask again for (ClientHooks.notify). */
  private toastFailure(init: RequestInit, failure: ApiCallError): void {
    if (init.method === 'GET') this.hooks.notify('error', failure.message, failure);
    else this.hooks.notify('error', failure.message);
  }

  private failed(status: number, url = ''): string {
    const dataCall = DATA_CALL.test(url);
    return this.hooks.failed?.(status, dataCall) ?? failedInEnglish(status, dataCall);
  }

  private async tokenCall(form: Record<string, string>, notify = true): Promise<TokenResponse> {
    const res = await this.fetchImpl(KernelApi.token.path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache', [H.sessionId]: this.sessionId, [H.requestId]: randomId() },
      body: new URLSearchParams(form).toString(),
    });
    const body = (await res.json().catch(() => ({}))) as Partial<TokenResponse> & { error?: string; error_description?: string };
    if (!res.ok || !body.access_token) {
      const msg = body.error_description ?? this.failed(res.status);
      if (notify) this.hooks.notify('error', msg);
      throw new ApiCallError(msg, res.status, body);
    }
    return body as TokenResponse;
  }

  private headers(opts: RequestOptions): Record<string, string> {
    const h: Record<string, string> = {
      'cache-control': 'no-cache',
      pragma: 'no-cache',
      [H.sessionId]: this.sessionId,
      [H.requestId]: randomId(),
    };
    const t = this.session.tokens();
    if (t) {
      h.authorization = `Bearer ${t.accessToken}`;
      if (t.formToken) h[H.antiForgery] = t.formToken;
    }
    const readAfter = this.session.readAfter();
    if (readAfter) h[H.readAfter] = readAfter;
    // The days a filter names are the reader's days: the server takes them in the browser's time zone.
    const zone = browserTimeZone();
    if (zone) h[H.timeZone] = zone;
    const member = opts.impersonate ?? this.hooks.impersonatedMemberId();
    if (member !== null) h[H.impersonate] = String(member);
    if (opts.binary) h['content-type'] = 'application/octet-stream';
    else if (opts.form) h['content-type'] = 'application/x-www-form-urlencoded';
    else if (opts.body !== undefined) h['content-type'] = 'application/json';
    return h;
  }

  private async request<T>(url: string, opts: RequestOptions = {}): Promise<T> {
    const notify = opts.notify ?? true;
    if (!opts.skipLoadingBar) this.hooks.loading(1);
    try {
      return await this.send<T>(url, opts, 0, notify);
    } finally {
      if (!opts.skipLoadingBar) this.hooks.loading(-1);
    }
  }

  private async send<T>(url: string, opts: RequestOptions, retries: number, notify: Notify, askedAgain = false): Promise<T> {
    const t = this.session.tokens();
    if (t?.refreshToken && retries === 0) {
      const remaining = (t.expiresAt - this.now()) / 1000;
      if (shouldRefresh(remaining, t.lifetime)) await this.refresh().catch(() => {});
    }
    const full = url + buildQuery(opts.query);
    const deadline = opts.binary || opts.responseType === 'blob' ? null : answerDeadline(opts.signal, opts.timeoutMs ?? ANSWER_TIMEOUT_MS);
    const init: RequestInit = {
      method: opts.method ?? 'GET',
      headers: this.headers(opts),
      body: opts.binary ?? (opts.form ? new URLSearchParams(opts.form).toString() : opts.body === undefined ? undefined : JSON.stringify(opts.body)),
      signal: deadline?.signal ?? opts.signal,
    };
    let res: Response;
    try {
      res =
        opts.onUploadProgress && opts.binary
          ? // Only uploads report progress: their code loads with the first one, not on every page's path.
            await (await import('./sendWithProgress')).sendWithProgress(full, init, opts.onUploadProgress)
          : await this.fetchImpl(full, init);
    } catch (e) {
      deadline?.clear();
      // A stopped call stays what it is; a network failure gets words the user can read. A read's page says them (its
      // load failure, in place); a change is toasted as any failed change is, unless its page says it (notify: false),
      // so a save that never reached the server is never silent. A finance or e-mail call toasts either way: the spec
      // has those say 'Error while getting data from server' (01 section 8).
      // No answer in time is a server not reached too.
      if (e instanceof DOMException && e.name === 'AbortError' && !deadline?.expired()) throw e;
      const failure = new ApiCallError(this.failed(0, url), 0, null);
      if (toasts(notify, failure) && (DATA_CALL.test(url) || init.method !== 'GET')) this.toastFailure(init, failure);
      throw failure;
    }
    // The answer has begun: its body is read without the deadline.
    deadline?.clear();

    if ((res.status === 401 || res.status === 403) && this.session.tokens()?.refreshToken) {
      // A 401 may be retried up to MAX_RETRIES times; a 403 once (roles may have changed since the token was issued).
      const limit = res.status === 401 ? MAX_RETRIES : 1;
      if (retries < limit) {
        try {
          await this.refresh();
        } catch {
          this.hooks.sessionEnded();
          throw new SessionEndedError();
        }
        return this.send<T>(url, opts, retries + 1, notify);
      }
    }
    const position = res.headers.get(H.readAfter);
    // Positions are 16 hexadecimal digits, so text order is their order: answers out of order keep the latest.
    if (position && position > (this.session.readAfter() ?? '')) this.session.setReadAfter(position);
    const retryAfter = res.status === 503 ? res.headers.get('retry-after') : null;
    const busyFor = retryAfter ? Number(retryAfter) : Number.NaN;
    if (!askedAgain && (opts.method ?? 'GET') === 'GET' && busyFor >= 0 && busyFor <= BUSY_RETRY_MAX_SECONDS) {
      await this.wait(busyFor * 1000, opts.signal);
      return this.send<T>(url, opts, retries, notify, true);
    }
    if (res.status === 401) {
      this.session.clear();
      this.hooks.sessionEnded();
      throw new SessionEndedError();
    }

    if (opts.responseType === 'blob' && res.ok) {
      const blob = await res.blob();
      const fileName = decodeFileName(res.headers.get(H.filename)) || 'export';
      return { blob, fileName } as T;
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    if (isEnvelope(body)) {
      if (body.HasError || !res.ok) {
        const failure = new ApiCallError(body.MsgText ?? this.failed(res.status, url), res.status, body);
        if (toasts(notify, failure)) this.toastFailure(init, failure);
        throw failure;
      }
      if (body.MsgText && body.Unwrap) {
        if (notify !== false) this.hooks.notify('success', body.MsgText);
        opts.onMessage?.(body.MsgText);
      }
      return (body.Unwrap ? body.Data : body) as T;
    }
    if (!res.ok) {
      const failure = new ApiCallError(this.failed(res.status, url), res.status, body);
      if (toasts(notify, failure)) this.toastFailure(init, failure);
      throw failure;
    }
    return body as T;
  }
}

type Notify = NonNullable<RequestOptions['notify']>;
/** Whether a failure is toasted under a call's `notify`. */
const toasts = (notify: Notify, failure: ApiCallError): boolean => (typeof notify === 'function' ? notify(failure) : notify);

let zoneRead: string | undefined;
/** The browser's IANA time zone ('America/Los_Angeles'), or '' when the browser names none; read once per page load. */
function browserTimeZone(): string {
  if (zoneRead === undefined) {
    try {
      zoneRead = Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
    } catch {
      zoneRead = '';
    }
  }
  return zoneRead;
}
