import type { ApiClient, KernelWebPlugin, PrefetchContext } from '@portal/web';
import { TERMINATION_QUERY_KEY } from '@portal/web/termination';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { prefetchCardBankCheck } from './CardBankCheckWidget.data';

// The kernel's index loads its style sheets, which need the build's styles plugin; the data module needs endpointRef.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/endpointRef'));

/** An API that answers each path from the table (a function answer may throw), and records the paths asked for. */
function fakeApi(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const api = {
    call: async (endpoint: { path: string }) => {
      asked.push(endpoint.path);
      const answer = answers[endpoint.path];
      return typeof answer === 'function' ? answer() : answer;
    },
  } as unknown as ApiClient;
  return { api, asked };
}

const context = (api: ApiClient, plugins: string[]): PrefetchContext =>
  ({ api, queryClient: new QueryClient(), plugins: plugins.map((id) => ({ id }) as KernelWebPlugin) }) as PrefetchContext;

const VALIDATE = '/api/finance/account/validate';
const TERMINATION = '/api/account/user/termination';
const CARDS = '/api/payment/customer/cards';

describe("the card and bank check's prefetch", () => {
  it('asks for the termination as soon as the check finds no bank linked, so the widget renders its message at once', async () => {
    const { api, asked } = fakeApi({ [VALIDATE]: { IsValid: false, IsStale: false }, [TERMINATION]: { isTerminated: false }, [CARDS]: [] });
    const ctx = context(api, ['billing', 'banking']);
    await prefetchCardBankCheck(ctx);
    expect(asked.sort()).toEqual([CARDS, TERMINATION, VALIDATE].sort());
    expect(ctx.queryClient.getQueryData(TERMINATION_QUERY_KEY)).toEqual({ isTerminated: false });
  });

  it('does not ask for the termination when a bank is linked, nor for cards on a site without payment cards', async () => {
    const { api, asked } = fakeApi({ [VALIDATE]: { IsValid: true, IsStale: false } });
    const ctx = context(api, ['banking']);
    await prefetchCardBankCheck(ctx);
    expect(asked).toEqual([VALIDATE]);
    expect(ctx.queryClient.getQueryData(TERMINATION_QUERY_KEY)).toBeUndefined();
  });

  it('settles without asking for the termination when the check fails (the widget then says it does not know)', async () => {
    const { api, asked } = fakeApi({
      [VALIDATE]: () => {
        throw new Error('down');
      },
    });
    const ctx = context(api, ['banking']);
    await expect(prefetchCardBankCheck(ctx)).resolves.toBeDefined();
    expect(asked).toEqual([VALIDATE]);
    expect(ctx.queryClient.getQueryState(['banking', 'check', 'bank'])?.status).toBe('error');
  });
});
