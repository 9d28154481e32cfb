import type { i18n } from 'i18next';
import type { Kernel } from '../context';
import { showToast } from '../store';
import { ExpiryWatch, WATCH } from './expiry-watch';
import { userAwayMs } from './userActivity';

/**
 * The session expiry watch of the app (spec 01 section 4), started once a session is stored: its code loads then, so
 * the sign-in page does not download it. Returns the watch's stop.
 */
export function watchSession(kernel: Kernel, i18n: i18n): () => void {
  const watch = new ExpiryWatch({
    remainingSeconds: () => {
      const tokens = kernel.session.tokens();
      return tokens ? (tokens.expiresAt - Date.now()) / 1000 : null;
    },
    warn: (minutes) =>
      showToast({
        kind: 'warning',
        key: 'session-expiry',
        timeout: WATCH.warningToastMs,
        message: i18n.t('session.expiring', { count: minutes }),
        onClick: () => void kernel.refreshSession(),
      }),
    signOut: () => void kernel.signOut({ silent: true }),
    working: () => userAwayMs() < WATCH.nearSeconds * 1000,
    refresh: () => void kernel.refreshSession(true),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  });
  watch.start();
  return () => watch.stop();
}
