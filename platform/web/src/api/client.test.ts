import { defineEndpoint, KernelApi } from '@portal/core';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type KeyValueStore, SessionStore } from '../session/storage';
import { ANSWER_TIMEOUT_MS, ApiClient, type ClientHooks } from './client';
import { ApiCallError, SessionEndedError } from './errors';

const EP_API_A = defineEndpoint({ method: 'GET', path: '/api/a' });
const EP_API_B = defineEndpoint({ method: 'GET', path: '/api/b' });
const EP_API_C = defineEndpoint({ method: 'GET', path: '/api/c' });
const EP_API_SEARCH = defineEndpoint({ method: 'GET', path: '/api/search' });
const EP_API_X = defineEndpoint({ method: 'GET', path: '/api/x' });
const EP_API_Y = defineEndpoint({ method: 'GET', path: '/api/y' });
const EP_SAVE = defineEndpoint({ method: 'POST', path: '/api/save', body: z.object({ Name: z.string() }) });

function memoryStore(): KeyValueStore {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const env = (Data: unknown, extra: Partial<{ MsgText: string | null; HasError: boolean; Unwrap: boolean }> = {}) => ({
  Data,
  Unwrap: true,
  MsgText: null,
  HasError: false,
  ...extra,
});

function setup(
  responder: (url: string, init: RequestInit) => Response | Promise<Response>,
  now = 1_000_000,
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>,
) {
  const session = new SessionStore(memoryStore());
  session.saveTokens({ access_token: 'a1', refresh_token: 'r1', expires_in: 900, form_token: 'f1' }, now);
  const hooks: ClientHooks = { notify: vi.fn(), sessionEnded: vi.fn(), loading: vi.fn(), impersonatedMemberId: vi.fn(() => null) };
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return responder(String(url), init ?? {});
  }) as unknown as typeof fetch;
  const client = new ApiClient(session, hooks, fetchImpl, () => now, wait);
  return { client, session, hooks, calls };
}
const header = (init: RequestInit, name: string) => (init.headers as Record<string, string>)[name];

describe('API client envelope handling', () => {
  it('returns only Data when Unwrap is set', async () => {
    const { client } = setup(() => json(200, env({ a: 1 })));
    await expect(client.call(EP_API_X)).resolves.toEqual({ a: 1 });
  });
  it("hands a successful answer's MsgText to onMessage, with or without the toast", async () => {
    const { client, hooks } = setup(() => json(200, env(1, { MsgText: 'Submitted' })));
    const said: string[] = [];
    await client.call(EP_API_X, undefined, { notify: false, onMessage: (m) => said.push(m) });
    expect(said).toEqual(['Submitted']);
    expect(hooks.notify).not.toHaveBeenCalled();
    const failing = setup(() => json(400, env(null, { HasError: true, MsgText: 'Refused' })));
    await expect(failing.client.call(EP_API_X, undefined, { notify: false, onMessage: (m) => said.push(m) })).rejects.toThrow('Refused');
    expect(said).toEqual(['Submitted']);
  });
  it('shows MsgText as a success toast when Unwrap is set, unless notifications are off', async () => {
    const { client, hooks } = setup(() => json(200, env(1, { MsgText: 'Saved' })));
    await client.call(EP_API_X);
    expect(hooks.notify).toHaveBeenCalledWith('success', 'Saved');
    await client.call(EP_API_X, undefined, { notify: false });
    expect(hooks.notify).toHaveBeenCalledTimes(1);
  });
  it('asks a notify function of each failure whether to toast it (a stale save said in place), and toasts successes', async () => {
    const stale = (f: ApiCallError) => f.status !== 409;
    const refused = setup(() => json(409, env(null, { HasError: true, MsgText: 'Changed by someone else' })));
    await expect(refused.client.call(EP_API_X, undefined, { notify: stale })).rejects.toThrow('Changed by someone else');
    expect(refused.hooks.notify).not.toHaveBeenCalled();
    const failed = setup(() => json(500, env(null, { HasError: true, MsgText: 'Down' })));
    await expect(failed.client.call(EP_API_X, undefined, { notify: stale })).rejects.toThrow('Down');
    expect(failed.hooks.notify).toHaveBeenCalledWith('error', 'Down', expect.objectContaining({ status: 500 }));
    const unreachable = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(unreachable.client.call(EP_API_X, { body: {} } as never, { notify: stale })).rejects.toBeInstanceOf(ApiCallError);
    const saved = setup(() => json(200, env(1, { MsgText: 'Saved' })));
    await saved.client.call(EP_API_X, undefined, { notify: stale });
    expect(saved.hooks.notify).toHaveBeenCalledWith('success', 'Saved');
  });
  it('fails the call when HasError is set, even with HTTP 200, and shows the message', async () => {
    const { client, hooks } = setup(() => json(200, env(null, { HasError: true, MsgText: 'Nope' })));
    await expect(client.call(EP_API_X)).rejects.toThrow('Nope');
    // A read's toast comes with its failure, which a query may ask again for (api/notices.ts).
    expect(hooks.notify).toHaveBeenCalledWith('error', 'Nope', expect.objectContaining({ message: 'Nope', status: 200 }));
  });
  it("words an answer that is no envelope (a proxy's page) by the hook, never showing the page itself", async () => {
    const { client, hooks } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    hooks.failed = (status) => `falló (${status})`;
    const error = await client.call(EP_API_X).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).message).toBe('falló (502)');
    expect((error as ApiCallError).status).toBe(502);
    expect(hooks.notify).toHaveBeenCalledWith('error', 'falló (502)', error);
  });
  it("words a finance or e-mail call's failure without a server message as the spec does, the server's message when it gives one", async () => {
    const EP_FINANCE = defineEndpoint({ method: 'GET', path: '/api/finance/site/accounts' });
    const EP_EMAIL = defineEndpoint({ method: 'POST', path: '/api/email/lowbalance' });
    for (const ep of [EP_FINANCE, EP_EMAIL]) {
      const { client, hooks } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
      await expect(client.call(ep)).rejects.toMatchObject({ message: 'Error while getting data from server' });
      expect(hooks.notify).toHaveBeenCalledWith('error', 'Error while getting data from server', ...(ep.method === 'GET' ? [expect.any(ApiCallError)] : []));
      const worded = setup(() => json(500, env(null, { HasError: true, MsgText: 'The bank is not available.' })));
      await expect(worded.client.call(ep)).rejects.toMatchObject({ message: 'The bank is not available.' });
      const down = setup(() => Promise.reject(new TypeError('Failed to fetch')));
      await expect(down.client.call(ep)).rejects.toMatchObject({ status: 0, message: 'Error while getting data from server' });
      // Unreached, it is still the spec's error toast (the bank pages say nothing of their own).
      expect(down.hooks.notify).toHaveBeenCalledWith(
        'error',
        'Error while getting data from server',
        ...(ep.method === 'GET' ? [expect.any(ApiCallError)] : []),
      );
      const quiet = setup(() => Promise.reject(new TypeError('Failed to fetch')));
      await expect(quiet.client.call(ep, undefined, { notify: false })).rejects.toMatchObject({ status: 0 });
      expect(quiet.hooks.notify).not.toHaveBeenCalled();
    }
    // Another service's call keeps its own words.
    const other = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(other.client.call(EP_API_X)).rejects.toMatchObject({ message: 'The request failed (502). Please try again.' });
  });

  it('words a server that cannot be reached (status 0; a read is left to its page, a change is toasted) and lets a stopped call stay an abort', async () => {
    const { client, hooks } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.call(EP_API_X)).rejects.toMatchObject({ status: 0, message: 'The server could not be reached. Check your connection and try again.' });
    expect(hooks.notify).not.toHaveBeenCalled();
    // A save that never reached the server is never silent: toasted unless its page says it itself.
    const save = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(save.client.call(EP_SAVE, { body: { Name: 'x' } })).rejects.toMatchObject({ status: 0 });
    expect(save.hooks.notify).toHaveBeenCalledWith('error', 'The server could not be reached. Check your connection and try again.');
    const inPage = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(inPage.client.call(EP_SAVE, { body: { Name: 'x' } }, { notify: false })).rejects.toMatchObject({ status: 0 });
    expect(inPage.hooks.notify).not.toHaveBeenCalled();
    const stopped = setup(() => Promise.reject(new DOMException('stopped', 'AbortError')));
    await expect(stopped.client.call(EP_API_X)).rejects.toMatchObject({ name: 'AbortError' });
  });
  it('fails a JSON call whose answer has not begun within the deadline as a server not reached, and leaves the caller’s own stop an abort', async () => {
    vi.useFakeTimers();
    try {
      // A server that never answers: the request ends only when its signal stops it.
      const hanging = (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError'))));
      const save = setup(hanging);
      const saving = save.client.call(EP_SAVE, { body: { Name: 'x' } });
      const outcome = expect(saving).rejects.toMatchObject({ status: 0, message: 'The server could not be reached. Check your connection and try again.' });
      await vi.advanceTimersByTimeAsync(ANSWER_TIMEOUT_MS - 1);
      expect(save.hooks.notify).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await outcome;
      expect(save.hooks.notify).toHaveBeenCalledWith('error', 'The server could not be reached. Check your connection and try again.');
      const shorter = setup(hanging);
      const quick = expect(shorter.client.call(EP_API_X, undefined, { timeoutMs: 5_000 })).rejects.toMatchObject({ status: 0 });
      await vi.advanceTimersByTimeAsync(5_000);
      await quick;
      const stopped = setup(hanging);
      const controller = new AbortController();
      const stopping = expect(stopped.client.call(EP_API_X, undefined, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      controller.abort();
      await stopping;
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends the bearer, anti-forgery, no-cache, session and request id headers, and the impersonation header when set', async () => {
    const { client, hooks, calls } = setup(() => json(200, env(null)));
    (hooks.impersonatedMemberId as ReturnType<typeof vi.fn>).mockReturnValue(42);
    await client.call(EP_API_X);
    await client.call(EP_API_Y);
    const [a, b] = calls;
    if (!a || !b) throw new Error('two calls expected');
    expect(header(a.init, 'authorization')).toBe('Bearer a1');
    expect(header(a.init, 'x-form-token')).toBe('f1');
    expect(header(a.init, 'cache-control')).toBe('no-cache');
    expect(header(a.init, 'x-member-id')).toBe('42');
    expect(header(a.init, 'x-session-id')).toBe(header(b.init, 'x-session-id'));
    expect(header(a.init, 'x-request-id')).not.toBe(header(b.init, 'x-request-id'));
  });
  it('skips the loading bar for search look-ups', async () => {
    const { client, hooks } = setup(() => json(200, env(null)));
    await client.call(EP_API_SEARCH, undefined, { skipLoadingBar: true });
    expect(hooks.loading).not.toHaveBeenCalled();
    await client.call(EP_API_X);
    expect(hooks.loading).toHaveBeenCalledWith(1);
    expect(hooks.loading).toHaveBeenCalledWith(-1);
  });
});

describe('token refresh', () => {
  const tokens = (n: number) => ({ access_token: `a${n}`, refresh_token: `r${n}`, expires_in: 900, form_token: 'f1' });

  it('buffers concurrent 401s behind one refresh and retries each call with the new token', async () => {
    let refreshes = 0;
    const { client, calls } = setup((url, init) => {
      if (url === '/token') {
        refreshes++;
        return json(200, tokens(2));
      }
      return header(init, 'authorization') === 'Bearer a2' ? json(200, env(url)) : json(401, env(null, { HasError: true, MsgText: 'expired' }));
    });
    const results = await Promise.all([client.call(EP_API_A), client.call(EP_API_B), client.call(EP_API_C)]);
    expect(results).toEqual(['/api/a', '/api/b', '/api/c']);
    expect(refreshes).toBe(1);
    expect(calls.filter((c) => c.url === '/token')).toHaveLength(1);
  });

  it('retries a call at most 5 times after refreshes, then rejects and ends the session', async () => {
    let n = 2;
    let attempts = 0;
    const { client, hooks } = setup((url) => {
      if (url === '/token') return json(200, tokens(n++));
      attempts++;
      return json(401, env(null, { HasError: true, MsgText: 'expired' }));
    });
    await expect(client.call(EP_API_X)).rejects.toBeInstanceOf(SessionEndedError);
    expect(attempts).toBe(6); // the first try and 5 retries
    expect(hooks.sessionEnded).toHaveBeenCalled();
  });

  it('rejects pending calls and clears tokens when the refresh is refused', async () => {
    const { client, hooks, session } = setup((url) =>
      url === '/token' ? json(400, { error: 'invalid_grant', error_description: 'ended' }) : json(401, env(null, { HasError: true, MsgText: 'x' })),
    );
    await expect(client.call(EP_API_X)).rejects.toBeInstanceOf(SessionEndedError);
    expect(session.tokens()).toBeNull();
    expect(hooks.sessionEnded).toHaveBeenCalled();
  });

  it('signing in over a live session ends it on the server first and keeps nothing it stored', async () => {
    const { client, session, calls } = setup((url) =>
      url === '/token' ? json(200, { access_token: 'b1', refresh_token: 'rb', expires_in: 900, form_token: 'fb' }) : json(200, env(null)),
    );
    session.setRegistrationStep(10);
    session.setReadAfter('00000000000000ff');
    await client.signIn('next-user', 'p');
    const signout = calls.find((c) => c.url === KernelApi.signout.path);
    expect(signout && header(signout.init, 'authorization')).toBe('Bearer a1');
    expect(session.tokens()).toMatchObject({ accessToken: 'b1', formToken: 'fb' });
    expect(session.registrationStep()).toBeNull();
    expect(session.readAfter()).toBeNull();
  });

  it('never refreshes on a failing /token call itself', async () => {
    const { client, calls } = setup(() => json(400, { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' }));
    await expect(client.signIn('u', 'p')).rejects.toThrow('The user name or password is incorrect.');
    expect(calls).toHaveLength(1);
  });

  it('refreshes before a call when less than 80% of the lifetime remains', async () => {
    let now = 1_000_000;
    const session = new SessionStore(memoryStore());
    session.saveTokens(tokens(1), now);
    const seen: string[] = [];
    const fetchImpl = (async (url: string) => {
      seen.push(String(url));
      return url === '/token' ? json(200, tokens(2)) : json(200, env(null));
    }) as unknown as typeof fetch;
    const hooks: ClientHooks = { notify: vi.fn(), sessionEnded: vi.fn(), loading: vi.fn(), impersonatedMemberId: () => null };
    const client = new ApiClient(session, hooks, fetchImpl, () => now);
    await client.call(EP_API_X);
    expect(seen).toEqual(['/api/x']); // 100% left
    now += 200_000; // 700 of 900 s left: under 80%
    await client.call(EP_API_X);
    expect(seen).toEqual(['/api/x', '/token', '/api/x']);
  });
});

describe('API client endpoint calls', () => {
  const byId = defineEndpoint({ method: 'GET', path: '/api/things/:id/:name' });
  const save = defineEndpoint({ method: 'POST', path: '/api/things/save' });
  const form = defineEndpoint({ method: 'POST', path: '/api/things/register', bodyEncoding: 'form' });
  it('fills and encodes path parameters and sends the query', async () => {
    const { client, calls } = setup(() => json(200, env(null)));
    await client.call(byId, { params: { id: 7, name: 'a/b c' }, query: { q: 'x y', none: null } } as never);
    expect(calls[0]?.url).toBe('/api/things/7/a%2Fb%20c?q=x+y');
    expect(calls[0]?.init.method).toBe('GET');
  });
  it('sends a JSON body, or a form-encoded one when the contract says so', async () => {
    const { client, calls } = setup(() => json(200, env(null)));
    await client.call(save, { body: { A: 1 } } as never);
    await client.call(form, { body: { UserName: 'u@x.com', Age: 3 } } as never);
    expect(calls[0]?.init.body).toBe('{"A":1}');
    expect(header(calls[0]?.init ?? {}, 'content-type')).toBe('application/json');
    expect(calls[1]?.init.body).toBe('UserName=u%40x.com&Age=3');
    expect(header(calls[1]?.init ?? {}, 'content-type')).toBe('application/x-www-form-urlencoded');
  });
  it('refuses to call a path with a missing parameter instead of sending a wrong URL', async () => {
    const { client, calls } = setup(() => json(200, env(null)));
    await expect(client.call(byId, { params: { id: 1 } } as never)).rejects.toThrow('missing path parameter name');
    expect(calls).toHaveLength(0);
  });
});

describe('download file names', () => {
  it('decodes the percent-encoded x-filename and keeps a malformed one as sent', async () => {
    const { decodeFileName } = await import('./client');
    expect(decodeFileName('R%C3%A9sum%C3%A9 100%25.pdf')).toBe('Résumé 100%.pdf');
    expect(decodeFileName('transactions-2024-05-06.csv')).toBe('transactions-2024-05-06.csv');
    expect(decodeFileName('100% sure.csv')).toBe('100% sure.csv');
    expect(decodeFileName(null)).toBeNull();
  });
});

describe('a busy server (503 with Retry-After)', () => {
  const busy = (after: string | null) =>
    new Response(JSON.stringify(env(null, { HasError: true, MsgText: 'The service is busy right now. Please try again in a moment.' })), {
      status: 503,
      headers: after === null ? {} : { 'retry-after': after },
    });
  /** The n-th answer (from 0) by `responder`; waits are noted, not waited. */
  function withWait(responder: (n: number) => Response) {
    const waits: number[] = [];
    let n = 0;
    const s = setup(
      () => responder(n++),
      1_000_000,
      async (ms) => {
        waits.push(ms);
      },
    );
    return { ...s, waits };
  }
  const POST = defineEndpoint({ method: 'POST', path: '/api/save', body: undefined as never });

  it('asks a read again once after the wait the server names, and the user never hears of the first answer', async () => {
    const { client, hooks, calls, waits } = withWait((n) => (n === 0 ? busy('2') : json(200, env({ a: 1 }))));
    await expect(client.call(EP_API_A)).resolves.toEqual({ a: 1 });
    expect(waits).toEqual([2000]);
    expect(calls).toHaveLength(2);
    expect(header(calls[0]?.init ?? {}, 'x-request-id')).not.toBe(header(calls[1]?.init ?? {}, 'x-request-id'));
    expect(hooks.notify).not.toHaveBeenCalled();
  });

  it('tells the user when the second answer is busy too, without a third call', async () => {
    const { client, hooks, calls } = withWait(() => busy('1'));
    await expect(client.call(EP_API_A)).rejects.toBeInstanceOf(ApiCallError);
    expect(calls).toHaveLength(2);
    expect(hooks.notify).toHaveBeenCalledWith('error', 'The service is busy right now. Please try again in a moment.', expect.any(ApiCallError));
  });

  it('does not ask again for a change, a wait over the limit or a 503 without Retry-After', async () => {
    for (const [endpoint, after] of [
      [POST, '1'],
      [EP_API_A, '30'],
      [EP_API_A, null],
      [EP_API_A, 'Fri, 27 Nov 2026 17:00:00 GMT'],
    ] as const) {
      const { client, calls, waits } = withWait(() => busy(after));
      await expect(client.call(endpoint as typeof EP_API_A)).rejects.toBeInstanceOf(ApiCallError);
      expect(calls, `${endpoint.method} ${after}`).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });

  it('a call stopped during the wait stops at once, without asking again', async () => {
    const { client, calls } = setup(() => busy('5'));
    const stop = new AbortController();
    const pending = client.call(EP_API_A, undefined, { signal: stop.signal });
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    // Had the wait gone on, the second answer (busy again, the mock ignores the signal) would be an ApiCallError.
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(1);
  });
});

describe("the reader's time zone (x-time-zone)", () => {
  it("names the browser's IANA time zone on every call, so the days a filter names are the reader's days", async () => {
    const { client, calls } = setup(() => new Response(JSON.stringify(env(null)), { status: 200 }));
    await client.call(EP_API_X);
    expect(header(calls[0]?.init ?? {}, 'x-time-zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

describe('read-your-writes with a read replica (x-read-after)', () => {
  const EP_SAVE = defineEndpoint({ method: 'POST', path: '/api/save' });
  const answered = (position: string | null) => new Response(JSON.stringify(env(null)), { status: 200, headers: position ? { 'x-read-after': position } : {} });

  it("sends no position until a change's answer names one, then sends the latest with every call, across a reload of the tab", async () => {
    const positions = [null, '00000000000001A0', '00000000000000FF', '0000000100000000', '00000000FFFFFFFF'];
    const { client, calls, session } = setup(() => answered(positions.shift() ?? null));
    await client.call(EP_API_X);
    expect(header(calls[0]?.init ?? {}, 'x-read-after')).toBeUndefined();
    // Answers out of order (…FF after …1A0) keep the later position; 1 << 32 is after 0xFFFFFFFF.
    for (let i = 0; i < 4; i++) await client.call(EP_SAVE);
    expect(calls.slice(1).map((c) => header(c.init, 'x-read-after'))).toEqual([undefined, '00000000000001A0', '00000000000001A0', '0000000100000000']);
    await client.call(EP_API_SEARCH);
    expect(header(calls[5]?.init ?? {}, 'x-read-after')).toBe('0000000100000000');
    // The tab's session storage keeps it, so a reload's first search still sees this tab's changes.
    expect(session.readAfter()).toBe('0000000100000000');
  });

  it('forgets the position at sign-out', () => {
    const session = new SessionStore(memoryStore());
    session.setReadAfter('0000000000000010');
    session.clear();
    expect(session.readAfter()).toBeNull();
  });
});
