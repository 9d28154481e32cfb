import { LoadFailed } from '@portal/web/kit';
import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import CardBankCheckWidget from './CardBankCheckWidget';

// No DOM here (and no react-dom in this package): the widget is called as a function, each query answered by its key
// as react-query would (a query's Try again is its `refetch`).
const queries = vi.hoisted(() => ({ byKey: new Map<string, Record<string, unknown>>() }));
vi.mock('@tanstack/react-query', () => ({
  useQuery: ({ queryKey }: { queryKey: readonly unknown[] }) => queries.byKey.get(JSON.stringify(queryKey)) ?? { isPending: true, isFetching: false },
}));
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
vi.mock('@portal/web', () => ({
  useApi: () => ({}),
  endpointRef: () => ({}),
  // The site offers payment cards (the billing plugin): the widget has its card line.
  useKernel: () => ({ plugins: [{ id: 'billing' }] }),
  // The API's words for a failed call (api/failures.ts), else the widget's own.
  failureWords: (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback),
}));
vi.mock('@portal/web/termination', () => ({ terminationQuery: () => ({ queryKey: ['termination'] }) }));
// The kit's LoadFailed (kit/components/Message.tsx): its words said at once (an alert), with a Try again.
vi.mock('@portal/web/kit', () => ({ LoadFailed: () => null, Message: () => null }));
// The styles are vanilla-extract's, compiled by the build.
vi.mock('./bank.css', () => ({ stack: 'stack' }));

type Props = { message?: unknown; onRetry?: () => void; children?: ReactNode; 'aria-busy'?: unknown };
/** The elements the widget draws of `type`, depth first (components are not rendered: their elements are kept). */
function elementsOf(node: ReactNode, type: unknown): ReactElement<Props>[] {
  return Children.toArray(node).flatMap((child) => {
    if (!isValidElement<Props>(child)) return [];
    return [...(child.type === type ? [child] : []), ...elementsOf(child.props.children, type)];
  });
}

const CARDS = JSON.stringify(['banking', 'check', 'cards']);
const BANK = JSON.stringify(['banking', 'check', 'bank']);
const failing = (words: string) => ({ isPending: false, isError: true, isFetching: false, error: new Error(words), data: undefined, refetch: vi.fn() });
const shown = () => CardBankCheckWidget() as ReactElement<Props>;

describe("the card and bank check's failed lines", () => {
  beforeEach(() => queries.byKey.clear());

  it("each says the API's words in its line in the kit's LoadFailed (an alert), whose Try again asks for that check alone", () => {
    queries.byKey.set(CARDS, failing('Cards are down'));
    queries.byKey.set(BANK, failing('Error while getting data from server'));
    const failed = elementsOf(shown(), LoadFailed);
    expect(failed.map((f) => f.props.message)).toEqual(['Cards are down', 'Error while getting data from server']);
    failed[0]?.props.onRetry?.();
    expect(queries.byKey.get(CARDS)?.refetch).toHaveBeenCalledTimes(1);
    expect(queries.byKey.get(BANK)?.refetch).not.toHaveBeenCalled();
    failed[1]?.props.onRetry?.();
    expect(queries.byKey.get(BANK)?.refetch).toHaveBeenCalledTimes(1);
    expect(queries.byKey.get(CARDS)?.refetch).toHaveBeenCalledTimes(1);
  });

  it("says 'not available' when the API gave no words, and reads as loading while Try again waits for the answer", () => {
    queries.byKey.set(CARDS, { ...failing(''), isFetching: true });
    queries.byKey.set(BANK, failing(''));
    const el = shown();
    expect(elementsOf(el, LoadFailed).map((f) => f.props.message)).toEqual(['widget.unknown']);
    const busy = elementsOf(el, 'span').filter((s) => s.props['aria-busy'] === 'true');
    expect(busy.map((s) => s.props.children)).toEqual(['loading']);
  });
});
