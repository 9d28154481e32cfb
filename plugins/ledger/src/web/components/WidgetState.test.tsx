import { LoadFailed } from '@portal/web/kit';
import { type ComponentType, isValidElement, type ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import AccountBalanceWidget from './AccountBalanceWidget';
import AdminBalanceWidget from './AdminBalanceWidget';
import BalanceByMonthWidget from './BalanceByMonthWidget';
import RecentTransactionsWidget from './RecentTransactionsWidget';
import { WidgetState, widgetQueryState } from './WidgetState';

// No DOM here (and no react-dom in this package): the widgets are called as functions, each query answered by its key
// as react-query would (a query's Try again is its `refetch`).
const queries = vi.hoisted(() => ({ byKey: new Map<string, Record<string, unknown>>() }));
vi.mock('@tanstack/react-query', () => ({
  useQuery: ({ queryKey }: { queryKey: readonly unknown[] }) => queries.byKey.get(JSON.stringify(queryKey.slice(0, 3))) ?? {},
}));
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
vi.mock('@portal/web', () => ({
  useApi: () => ({}),
  endpointRef: () => ({}),
  useActingMemberId: () => 7,
  useRoles: () => [],
  compactTableCss: {},
}));
// The kit's LoadFailed (kit/components/Message.tsx): its words said at once (an alert), with a Try again.
vi.mock('@portal/web/kit', () => ({ LoadFailed: () => null }));
// The styles are vanilla-extract's, compiled by the build.
vi.mock('./ledger.css', () => ({}));
vi.mock('./useDelayed', () => ({ useDelayed: () => true, useMemberLedger: () => ({ ready: true, noMember: false, delayed: true, member: 7 }) }));

type Props = { message?: unknown; onRetry?: () => void; children?: unknown; 'aria-busy'?: unknown };
type StateProps = Parameters<typeof WidgetState>[0];

const failing = () => ({ isPending: false, isError: true, isFetching: false, error: new Error('down'), data: undefined, refetch: vi.fn() });
const key = (...parts: string[]) => JSON.stringify(['ledger', 'dashboard', ...parts]);
/** What WidgetState draws for a widget that answered with it. */
const stateOf = (widget: ComponentType) => {
  const el = (widget as () => ReactElement<StateProps>)();
  expect(el.type).toBe(WidgetState);
  return WidgetState(el.props) as ReactElement<Props>;
};

describe("a ledger dashboard widget's failed load", () => {
  beforeEach(() => queries.byKey.clear());

  it.each([
    ['the account balance', AccountBalanceWidget, 'balance', 'balance.error'],
    ['the admin balance', AdminBalanceWidget, 'adminBalance', 'balance.error'],
    ['the balance by month', BalanceByMonthWidget, 'balanceMonth', 'balance.error'],
    ['the recent transactions', RecentTransactionsWidget, 'recent', 'widget.error'],
  ] as const)("%s: its words in the kit's LoadFailed (an alert), whose Try again asks for that widget's query alone", (_name, widget, part, words) => {
    // Every ledger query failed: Try again asks only for the widget's own again.
    for (const p of ['balance', 'adminBalance', 'balanceMonth', 'recent']) queries.byKey.set(key(p), failing());
    const el = stateOf(widget);
    expect(isValidElement(el) && el.type).toBe(LoadFailed);
    expect(el.props.message).toBe(words);
    el.props.onRetry?.();
    for (const [k, q] of queries.byKey) expect(q.refetch, k).toHaveBeenCalledTimes(k === key(part) ? 1 : 0);
  });

  it('reads as loading while Try again waits for the answer, as before the first one', () => {
    queries.byKey.set(key('recent'), { ...failing(), isFetching: true });
    const retrying = stateOf(RecentTransactionsWidget);
    expect(retrying.type).toBe('p');
    expect(retrying.props['aria-busy']).toBe('true');
    expect(widgetQueryState({ isError: false, isFetching: true, error: null, refetch: vi.fn() })).toMatchObject({ pending: true, error: null });
    expect(widgetQueryState({ isError: false, isFetching: false, error: null, refetch: vi.fn() })).toMatchObject({ pending: true, error: null });
  });

  it('staff acting for no member still get the hint to choose one, not a failure', () => {
    const el = WidgetState({ pending: false, error: new Error('down'), noMember: true, what: 'balance', onRetry: vi.fn() }) as ReactElement<Props>;
    expect(el.type).toBe('p');
    expect(el.props.children).toBe('widget.noMember');
  });
});
