import { defineEndpoint } from '@portal/core';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../session/storage';
import { ApiClient, type ClientHooks } from './client';
import { retryQuery } from './errors';
import { clientNotices } from './notices';

const READ = defineEndpoint({ method: 'GET', path: '/api/read' });
const SAVE = defineEndpoint({ method: 'POST', path: '/api/save' });
const failing = () => new Response(JSON.stringify({ Data: null, Unwrap: true, MsgText: 'An unexpected error occurred.', HasError: true }), { status: 500 });
const flush = () => new Promise((r) => setTimeout(r, 5));

function client(respond: (n: number) => Response) {
  const shown: { kind: string; message: string; key?: string }[] = [];
  let n = 0;
  const hooks: ClientHooks = {
    notify: clientNotices((t) => shown.push(t)),
    sessionEnded: vi.fn(),
    loading: () => {},
    impersonatedMemberId: () => null,
  };
  const session = new SessionStore({ getItem: () => null, setItem: () => {}, removeItem: () => {} });
  const fetchImpl = (async () => respond(n++)) as unknown as typeof fetch;
  return { api: new ApiClient(session, hooks, fetchImpl), shown, calls: () => n };
}

describe('one failure, one announcement', () => {
  it('a read a query asks again (a 5xx) is toasted once, when the second answer fails too', async () => {
    const { api, shown, calls } = client(failing);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryQuery, retryDelay: 0 } } });
    await expect(queryClient.fetchQuery({ queryKey: ['read'], queryFn: () => api.call(READ) })).rejects.toThrow('An unexpected error occurred.');
    await flush();
    expect(calls()).toBe(2);
    expect(shown).toEqual([{ kind: 'error', message: 'An unexpected error occurred.', key: 'error:An unexpected error occurred.' }]);
  });

  it('a read asked again that then succeeds is never toasted', async () => {
    const { api, shown } = client((n) => (n === 0 ? failing() : new Response(JSON.stringify({ Data: 1, Unwrap: true, MsgText: null, HasError: false }))));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryQuery, retryDelay: 0 } } });
    await expect(queryClient.fetchQuery({ queryKey: ['read'], queryFn: () => api.call(READ) })).resolves.toBe(1);
    await flush();
    expect(shown).toEqual([]);
  });

  it('a read nobody asks again (called by a page, a query without retries) is toasted, after the moment a query takes to decide', async () => {
    const { api, shown } = client(failing);
    await expect(api.call(READ)).rejects.toThrow();
    await flush();
    expect(shown).toHaveLength(1);
    const quiet = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(quiet.fetchQuery({ queryKey: ['read'], queryFn: () => api.call(READ) })).rejects.toThrow();
    await flush();
    expect(shown).toHaveLength(2);
  });

  it('a failed change is toasted at once; every error toast is keyed by its words, so a repeat replaces the open one', async () => {
    const { api, shown } = client(failing);
    await expect(api.call(SAVE)).rejects.toThrow();
    expect(shown).toEqual([{ kind: 'error', message: 'An unexpected error occurred.', key: 'error:An unexpected error occurred.' }]);
  });
});
