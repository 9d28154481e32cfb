import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import * as css from './Layout.css';
import { claimStaleReload, isStaleBuildError } from './staleBuild';

/**
 * What a route shows when its code could not be loaded or its page failed to render: the kernel's message and a
 * reload button, inside the signed-in layout for a page of it, never the router's own error screen. When the code is
 * gone because the site was deployed again while the tab was open, the tab reloads once by itself (staleBuild.ts).
 */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const stale = isStaleBuildError(error);
  useEffect(() => {
    if (stale && claimStaleReload(sessionStorage)) window.location.reload();
  }, [stale]);
  return (
    <div role="alert" data-testid="page-error">
      <p>{t('app.pageError')}</p>
      <button type="button" className={css.pageErrorButton} onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}
