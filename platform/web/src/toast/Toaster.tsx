import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '../shell/prerendered';
import { dismissToast, type Toast, toastsAtom } from '../store';
import * as css from './Toaster.css';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  useEffect(() => {
    if (toast.timeout <= 0) return;
    const h = setTimeout(() => dismissToast(toast.id), toast.timeout);
    return () => clearTimeout(h);
  }, [toast.id, toast.timeout]);
  const role = toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status';
  return (
    <div className={`${css.toast} ${css.kind[toast.kind]}`} role={role} data-kind={toast.kind}>
      {toast.onClick ? (
        <button
          type="button"
          className={`${css.message} ${css.clickable}`}
          onClick={() => {
            toast.onClick?.();
            dismissToast(toast.id);
          }}
        >
          {toast.message}
        </button>
      ) : (
        <span className={css.message}>{toast.message}</span>
      )}
      <button type="button" className={css.close} aria-label={t('toast.close')} onClick={() => dismissToast(toast.id)}>
        ×
      </button>
      {toast.timeout > 0 && <span className={css.progress} style={{ animationDuration: `${toast.timeout}ms` }} aria-hidden="true" />}
    </div>
  );
}

/**
 * Toasts top-right with a close button and a progress bar; sticky toasts (timeout 0) stay until closed. A toast
 * raised before React has taken over a prerendered page shows right after (the prerender's region is empty).
 */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const hydrated = useHydrated();
  const { t } = useTranslation();
  return (
    <section className={css.region} aria-label={t('toast.region')} aria-live="polite">
      {hydrated && toasts.map((toast) => <ToastItem key={toast.id} toast={toast} />)}
    </section>
  );
}
