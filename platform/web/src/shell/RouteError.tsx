import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';
import * as css from './Layout.css';
import { useOnline } from './online';
import { claimStaleReload, isStaleBuildError } from './staleBuild';

/**
 * The kernel's notice for code that could not be loaded or failed to render, with a Reload button. When the code is
 * gone because the site was deployed again while the tab was open, the tab reloads once by itself (staleBuild.ts).
 * Code that could not be fetched while the browser is offline is not a new deployment: a reload now would only swap
 * the app for the browser's own offline page, so the notice says so and the tab reloads (once) when the network is back.
 */
export function ErrorNotice({ error, message, testId }: { error: unknown; message: 'app.pageError' | 'app.partError'; testId: string }) {
  const { t } = useTranslation();
  const stale = isStaleBuildError(error);
  const online = useOnline();
  useEffect(() => {
    if (stale && online && claimStaleReload(sessionStorage)) window.location.reload();
  }, [stale, online]);
  return (
    <div role="alert" data-testid={testId}>
      <p>{t(stale && !online ? 'app.offlineCode' : message)}</p>
      <button type="button" className={css.pageErrorButton} onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}

/**
 * What a route shows when its code could not be loaded or its page failed to render: the kernel's notice, inside the
 * signed-in layout for a page of it, never the router's own error screen.
 */
export function RouteError() {
  return <ErrorNotice error={useRouteError()} message="app.pageError" testId="page-error" />;
}
