import type { ToastKind } from './client';
import type { ApiCallError } from './errors';
import { isAskedAgain } from './errors';

export interface ClientToast {
  kind: ToastKind;
  message: string;
  key?: string;
}

/**
 * The API client's toasts (ClientHooks.notify), one announcement a failure:
 * - an error's toast is keyed by its words, so the same words said again (two parts of a page failing alike, a read
 *   asked again) keep the open toast instead of stacking a copy (store.ts showToast);
 * - a read's failure (`failure`, a GET's) waits for the moment a query takes to decide whether it asks again
 *   (retryQuery, synchronously as the failed call settles): one that is asked again is not toasted, the retry's own
 *   outcome is (toasted if it fails too, nothing if it succeeds). A read nobody asks again is toasted then.
 */
export function clientNotices(show: (toast: ClientToast) => void, later: (fn: () => void) => void = (fn) => void setTimeout(fn, 0)) {
  return (kind: ToastKind, message: string, failure?: ApiCallError): void => {
    const toast: ClientToast = kind === 'error' ? { kind, message, key: `error:${message}` } : { kind, message };
    if (!failure) {
      show(toast);
      return;
    }
    later(() => {
      if (!isAskedAgain(failure)) show(toast);
    });
  };
}
