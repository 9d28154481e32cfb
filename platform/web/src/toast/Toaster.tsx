import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '../shell/prerendered';
import { dismissToast, type Toast, toastsAtom } from '../store';
import { PausableTimer } from './pausableTimer';
import * as css from './Toaster.css';

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const timer = useRef<PausableTimer | null>(null);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (toast.timeout <= 0) return;
    const timed = new PausableTimer(toast.timeout, () => dismissToast(toast.id));
    timer.current = timed;
    timed.start();
    return () => {
      timed.stop();
      timer.current = null;
    };
  }, [toast.id, toast.timeout]);
  // Said again while open (store.ts showToast): the same toast, its time started over.
  useEffect(() => {
    if (toast.renewed) timer.current?.restart(toast.timeout);
  }, [toast.renewed, toast.timeout]);
  // The time stands while the user points at the toast or has focus in it (its button, Close), so it can be read and
  // acted on; it goes on with the time that was left when they leave.
  const hold = (reason: string) => {
    timer.current?.hold(reason);
    setPaused(timer.current?.paused ?? false);
  };
  const release = (reason: string) => {
    timer.current?.release(reason);
    setPaused(timer.current?.paused ?? false);
  };
  const role = toast.kind === 'error' || toast.kind === 'warning' ? 'alert' : 'status';
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: an alert or status region; pointing at it or focusing its buttons only holds its timeout, the toast's controls are its buttons
    <div
      className={`${css.toast} ${css.kind[toast.kind]}`}
      role={role}
      data-kind={toast.kind}
      data-paused={paused || undefined}
      onPointerEnter={() => hold('pointer')}
      onPointerLeave={() => release('pointer')}
      onFocus={() => hold('focus')}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) release('focus');
      }}
    >
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
      {toast.timeout > 0 && (
        <span
          className={css.progress}
          style={{ animationDuration: `${toast.timeout}ms`, animationPlayState: paused ? 'paused' : 'running' }}
          aria-hidden="true"
        />
      )}
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
    // A top layer for react-aria: a modal dialog leaves it out of what it hides (aria-hidden/inert), so a toast raised
    // while a dialog is open is still announced and readable.
    <section className={css.region} aria-label={t('toast.region')} aria-live="polite" data-react-aria-top-layer="true">
      {hydrated && toasts.map((toast) => <ToastItem key={toast.id} toast={toast} />)}
    </section>
  );
}
