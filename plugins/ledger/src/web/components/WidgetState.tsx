import { useTranslation } from 'react-i18next';

/**
 * What a widget shows while it waits or when it has nothing: staff acting for no member get a hint to choose one
 * (useMemberLedger), not a refused call's error.
 */
export function WidgetState({ pending, error, noMember = false }: { pending: boolean; error: unknown; noMember?: boolean }) {
  const { t } = useTranslation('ledger');
  if (noMember) return <p data-testid="ledger-no-member">{t('widget.noMember')}</p>;
  if (error) return <p role="alert">{t('widget.error')}</p>;
  if (pending) return <p aria-busy="true">{t('loading')}</p>;
  return null;
}
