import { vars } from '@portal/themes';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { loadingCountAtom } from '../store';

/** A thin bar along the top while requests are in flight (search and price look-ups opt out). */
export function LoadingBar() {
  const count = useAtomValue(loadingCountAtom);
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <div
      role="progressbar"
      aria-label={t('loadingBar')}
      data-testid="loading-bar"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, height: 3, background: vars.color.background.brandAccent, zIndex: 1001, opacity: 0.85 }}
    />
  );
}
