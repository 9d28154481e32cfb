import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { cancelCardForm, type GatewayMessage, gatewayListener, PROFILE_KEY } from './gateway';

const ORIGIN = 'http://localhost:8090';
const frameWindow = {} as MessageEventSource;
const message = (data: GatewayMessage, origin = ORIGIN, source: MessageEventSource | null = frameWindow) =>
  ({ origin, source, data }) as MessageEvent<GatewayMessage>;

/** A page showing the billing profile: a query with an observer, as useQuery keeps it, fetched once. */
async function pageWithProfile() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const fetchProfile = vi.fn(async () => ({ Profiles: [] }));
  const observer = new QueryObserver(queryClient, { queryKey: PROFILE_KEY, queryFn: fetchProfile });
  const unsubscribe = observer.subscribe(() => {});
  await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
  expect(fetchProfile).toHaveBeenCalledTimes(1);
  return { queryClient, fetchProfile, unsubscribe };
}

/** The hosted form's listener as CardForm wires it for Cancel; the other handlers record nothing. */
function cardFormListener(queryClient: QueryClient, guidedCancel?: () => void) {
  const noop = () => {};
  return gatewayListener(ORIGIN, () => frameWindow, {
    rendered: noop,
    error: noop,
    saved: noop,
    cancelled: () => void cancelCardForm(queryClient, PROFILE_KEY, guidedCancel),
  });
}

describe('Cancel at the hosted card form (spec 01 section 4)', () => {
  it('outside guided mode reloads the billing profile: the page fetches it again', async () => {
    const { queryClient, fetchProfile, unsubscribe } = await pageWithProfile();
    cardFormListener(queryClient)(message({ source: 'sandbox-gateway', action: 'cancel' }));
    await vi.waitFor(() => expect(fetchProfile).toHaveBeenCalledTimes(2));
    unsubscribe();
  });

  it('in guided mode reopens the form (the caller’s onCancel) without reloading the profile', async () => {
    const { queryClient, fetchProfile, unsubscribe } = await pageWithProfile();
    const reopen = vi.fn();
    cardFormListener(queryClient, reopen)(message({ source: 'sandbox-gateway', action: 'cancel' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(reopen).toHaveBeenCalledTimes(1);
    expect(fetchProfile).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('ignores a cancel from another origin, another window or not from the gateway', async () => {
    const { queryClient, fetchProfile, unsubscribe } = await pageWithProfile();
    const listener = cardFormListener(queryClient);
    listener(message({ source: 'sandbox-gateway', action: 'cancel' }, 'http://evil.example'));
    listener(message({ source: 'sandbox-gateway', action: 'cancel' }, ORIGIN, {} as MessageEventSource));
    listener(message({ source: 'sandbox-gateway', action: 'cancel' }, ORIGIN, null));
    listener(message({ source: 'someone-else', action: 'cancel' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchProfile).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
