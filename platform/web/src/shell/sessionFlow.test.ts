import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { type KeyValueStore, SessionStore } from '../session/storage';
import { forgetMemberData } from './forget';
import { type SessionFlowDeps, sessionFlow } from './sessionFlow';

const token = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
const memory = (): KeyValueStore => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('acting for another member', () => {
  it("drops the previous member's data at once: a page drawn now goes back to loading and asks again, none shows the old answer", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    let member = 21;
    const profileFn = vi.fn(async () => ({ MemberID: member }));
    // A page on screen (an observer) and one left earlier (cached, drawn by nothing).
    const page = new QueryObserver(queryClient, { queryKey: ['profile', 'member'], queryFn: profileFn });
    const seen: unknown[] = [];
    const unsubscribe = page.subscribe((r) => seen.push(r.data));
    await queryClient.fetchQuery({ queryKey: ['documents', 'statements'], queryFn: async () => ['21: January'] });
    await vi.waitFor(() => expect(page.getCurrentResult().data).toEqual({ MemberID: 21 }));
    for (const [key, data] of [
      [['kernel', 'identity'], { Name: 'staff.superuser' }],
      [['kernel', 'config'], { Phone: '1' }],
      [['kernel', 'lookups'], []],
    ] as const)
      queryClient.setQueryData(key, data);

    member = 20;
    seen.length = 0;
    forgetMemberData(queryClient);
    // The page's next result has no data (loading), never member 21's; then member 20's answer.
    expect(page.getCurrentResult()).toMatchObject({ data: undefined, status: 'pending' });
    expect(queryClient.getQueryData(['documents', 'statements'])).toBeUndefined();
    await vi.waitFor(() => expect(page.getCurrentResult().data).toEqual({ MemberID: 20 }));
    expect(seen.filter((d) => d !== undefined)).toEqual([{ MemberID: 20 }]);
    // The user's identity, the site's configuration and lookups are no member's: they stay.
    expect(queryClient.getQueryData(['kernel', 'identity'])).toEqual({ Name: 'staff.superuser' });
    expect(queryClient.getQueryData(['kernel', 'config'])).toEqual({ Phone: '1' });
    expect(queryClient.getQueryData(['kernel', 'lookups'])).toEqual([]);
    unsubscribe();
  });

  it("keeps nothing of the previous member when the new member's read fails", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let fail = false;
    const page = new QueryObserver(queryClient, {
      queryKey: ['notes', 'list'],
      queryFn: async () => {
        if (fail) throw new Error('The data could not be loaded');
        return ['21: a note'];
      },
    });
    const unsubscribe = page.subscribe(() => {});
    await vi.waitFor(() => expect(page.getCurrentResult().data).toEqual(['21: a note']));
    fail = true;
    forgetMemberData(queryClient);
    await vi.waitFor(() => expect(page.getCurrentResult().status).toBe('error'));
    expect(page.getCurrentResult().data).toBeUndefined();
    unsubscribe();
  });
});

/** A signed-in tab: a session store with A's tokens, a router on `path`, and what the flow did. */
function tab(path = '/notes/57') {
  const session = new SessionStore(memory());
  session.saveTokens({ access_token: token({ sub: 'alice' }), refresh_token: 'r', expires_in: 900 }, Date.now());
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const toasts: string[] = [];
  const navigations: { to: string; state: unknown }[] = [];
  const router = {
    state: { location: { pathname: path, search: '?q=x' } },
    /** The signed-in page leaving (drawn a last time, then gone) as React draws the move. */
    leave: () => {},
    async navigate(to: string, opts?: { state?: unknown; flushSync?: boolean }) {
      navigations.push({ to, state: opts?.state });
      router.state = { location: { pathname: to, search: '' } };
      // As the real router: the move is drawn at once with flushSync, else later (a React transition), after the
      // navigation's promise has resolved.
      if (opts?.flushSync) router.leave();
      else setTimeout(() => router.leave(), 0);
    },
  };
  const deps: SessionFlowDeps = {
    router,
    queryClient,
    session,
    api: { call: vi.fn(async () => undefined) as unknown as SessionFlowDeps['api']['call'] },
    endImpersonation: vi.fn(),
    toastEnded: () => toasts.push('Your session has ended. Please sign in again.'),
  };
  return { deps, session, queryClient, router, toasts, navigations, flow: sessionFlow(deps) };
}

describe('a session found ended by a call', () => {
  it('says why, and goes to the sign-in page to come back to this page for the same user', async () => {
    const t = tab();
    t.session.clear(); // the API client clears the tokens first
    t.flow.sessionEnded();
    expect(t.toasts).toEqual(['Your session has ended. Please sign in again.']);
    expect(t.navigations).toEqual([{ to: '/login', state: { from: { pathname: '/notes/57', search: '?q=x' }, user: 'alice' } }]);
  });

  it('ends acting for a member once the page has left, as a sign-out does: the next user of the browser may be another', async () => {
    const t = tab();
    t.session.clear();
    t.flow.sessionEnded();
    expect(t.deps.endImpersonation).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(t.deps.endImpersonation).toHaveBeenCalledTimes(1));
    expect(t.queryClient.getQueryCache().getAll()).toEqual([]);
  });

  it('stays quiet on the sign-in page (a stored session found ended there, a sign-out’s last calls)', () => {
    const t = tab('/login');
    t.session.clear();
    t.flow.sessionEnded();
    expect(t.toasts).toEqual([]);
    expect(t.navigations).toEqual([]);
  });
});

describe('sign-out', () => {
  it('leaves the signed-in page before the tokens and the cache go: nothing on it asks again without a token', async () => {
    const t = tab('/dashboard');
    const unauthenticated: string[] = [];
    const lookupsFn = vi.fn(async () => {
      if (!t.session.tokens()) unauthenticated.push('GET /api/lookup/get');
      return [];
    });
    const options = { queryKey: ['kernel', 'lookups'], queryFn: lookupsFn, staleTime: Number.POSITIVE_INFINITY };
    const layout = new QueryObserver(t.queryClient, options);
    const unsubscribe = layout.subscribe(() => {});
    await vi.waitFor(() => expect(layout.getCurrentResult().data).toEqual([]));
    // As the move is drawn, the layout is drawn a last time (useQuery sets its options on each render), then it is gone.
    t.router.leave = () => {
      layout.setOptions(options);
      unsubscribe();
    };
    await t.flow.signOut();
    await flush();
    expect(unauthenticated).toEqual([]);
    expect(lookupsFn).toHaveBeenCalledTimes(1);
    expect(t.navigations).toEqual([{ to: '/login', state: undefined }]);
    expect(t.session.tokens()).toBeNull();
    expect(t.queryClient.getQueryCache().getAll()).toEqual([]);
    expect(t.deps.endImpersonation).toHaveBeenCalled();
  });

  it('a session that ran out says so and comes back for the same user; one the user ended owes the next user nothing', async () => {
    const ranOut = tab();
    await ranOut.flow.signOut({ silent: true });
    expect(ranOut.toasts).toEqual(['Your session has ended. Please sign in again.']);
    expect(ranOut.navigations[0]?.state).toEqual({ from: { pathname: '/notes/57', search: '?q=x' }, user: 'alice' });
    expect(ranOut.session.user()).toBe('alice');

    const ended = tab();
    await ended.flow.signOut();
    expect(ended.toasts).toEqual([]);
    expect(ended.session.user()).toBeNull();
  });

  it('a call finding the session ended during the sign-out adds nothing to it', async () => {
    const t = tab();
    t.router.leave = () => t.flow.sessionEnded();
    await t.flow.signOut();
    expect(t.toasts).toEqual([]);
    expect(t.navigations).toHaveLength(1);
  });
});
