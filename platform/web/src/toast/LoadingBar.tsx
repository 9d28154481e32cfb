import { vars } from '@portal/themes';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '../shell/prerendered';
import { loadingCountAtom } from '../store';

/**
 * A thin bar along the top while requests are in flight (search and price look-ups opt out). Not while React takes
 * over a prerendered page: the prerender has no bar, and calls started before (a stored session's) would make the
 * markup differ.
 */
export function LoadingBar() {
  const count = useAtomValue(loadingCountAtom);
  const hydrated = useHydrated();
  const { t } = useTranslation();
  if (count <= 0 || !hydrated) return null;
  return (
    <div
      role="progressbar"
      aria-label={t('loadingBar')}
      data-testid="loading-bar"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, height: 3, background: vars.color.background.brandAccent, zIndex: 1001, opacity: 0.85 }}
    />
  );
}
