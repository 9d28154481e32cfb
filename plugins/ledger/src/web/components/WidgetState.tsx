import { useTranslation } from 'react-i18next';

/** What failed to load, by the widget: its balance or its transactions. */
export type WidgetFailure = 'balance' | 'transactions';
const FAILED: Record<WidgetFailure, string> = { balance: 'balance.error', transactions: 'widget.error' };

/**
 * What a widget shows while it waits or when it has nothing: staff acting for no member get a hint to choose one
 * (useMemberLedger), not a refused call's error. A failure names what could not be loaded (`what`): a balance tile or
 * chart says the balance, not the transactions.
 */
export function WidgetState({ pending, error, noMember = false, what }: { pending: boolean; error: unknown; noMember?: boolean; what: WidgetFailure }) {
  const { t } = useTranslation('ledger');
  if (noMember) return <p data-testid="ledger-no-member">{t('widget.noMember')}</p>;
  if (error) return <p role="alert">{t(FAILED[what])}</p>;
  if (pending) return <p aria-busy="true">{t('loading')}</p>;
  return null;
}
