import { LoadFailed } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';

/** What failed to load, by the widget: its balance or its transactions. */
export type WidgetFailure = 'balance' | 'transactions';
const FAILED: Record<WidgetFailure, string> = { balance: 'balance.error', transactions: 'widget.error' };

/** The part of a widget's query WidgetState reads (react-query's result). */
interface WidgetQuery {
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * WidgetState's props for a widget's own query: waiting (its first answer, or a Try again after a failure: the query's
 * status stays 'error' until the new answer), failed, and the Try again that asks that query anew (only it).
 */
export const widgetQueryState = (q: WidgetQuery) => ({
  pending: !q.isError || q.isFetching,
  error: q.isFetching ? null : q.error,
  onRetry: () => void q.refetch(),
});

/**
 * What a widget shows while it waits or when it has nothing: staff acting for no member get a hint to choose one
 * (useMemberLedger), not a refused call's error. A failure names what could not be loaded (`what`): a balance tile or
 * chart says the balance, not the transactions; with `onRetry` it is the kit's LoadFailed (said at once, with a Try
 * again), as every dashboard widget says its failure.
 */
export function WidgetState({
  pending,
  error,
  noMember = false,
  what,
  onRetry,
}: {
  pending: boolean;
  error: unknown;
  noMember?: boolean;
  what: WidgetFailure;
  onRetry?: () => void;
}) {
  const { t } = useTranslation('ledger');
  if (noMember) return <p data-testid="ledger-no-member">{t('widget.noMember')}</p>;
  if (error) return onRetry ? <LoadFailed message={t(FAILED[what])} onRetry={onRetry} /> : <p role="alert">{t(FAILED[what])}</p>;
  if (pending) return <p aria-busy="true">{t('loading')}</p>;
  return null;
}
