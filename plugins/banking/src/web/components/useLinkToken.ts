import { useApi } from '@portal/web';
import { useEffect, useState } from 'react';
import { BANK_CONSTANTS } from '../../access';
import { BankingApi } from '../../contract';
import { type LinkFrame, linkFrameOf } from './LinkingFrame';

/**
 * The linking loader: asks the finance service for a hosted-page token (url, rsession, app, token, extra) and retries
 * up to 3 times, 1 s apart (spec 01 section 9). Answers the frame to open (LinkingFrame), or 'failed' after the last try.
 */
export function useLinkToken(): LinkFrame | 'loading' | 'failed' {
  const api = useApi();
  const [state, setState] = useState<LinkFrame | 'loading' | 'failed'>('loading');
  useEffect(() => {
    let stopped = false;
    const load = async () => {
      for (let attempt = 0; attempt <= BANK_CONSTANTS.loaderRetries; attempt++) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, BANK_CONSTANTS.loaderRetryMs));
        if (stopped) return;
        try {
          const t = await api.call(BankingApi.token, undefined, { notify: attempt === BANK_CONSTANTS.loaderRetries });
          if (!stopped) setState(linkFrameOf(t));
          return;
        } catch {
          // try again
        }
      }
      if (!stopped) setState('failed');
    };
    void load();
    return () => {
      stopped = true;
    };
  }, [api]);
  return state;
}
