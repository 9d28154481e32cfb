import type { ApiCallError } from '@portal/web';
import { useTranslation } from 'react-i18next';

/** What a widget shows while it waits or when it has nothing: staff acting for no member get a hint, not an error. */
export function WidgetState({ pending, error }: { pending: boolean; error: unknown }) {
  const { t } = useTranslation('ledger');
  if (error) return <p role="alert">{(error as ApiCallError).status === 403 ? t('widget.noMember') : t('widget.error')}</p>;
  if (pending) return <p aria-busy="true">{t('loading')}</p>;
  return null;
}
