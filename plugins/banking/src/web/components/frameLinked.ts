import { useApi } from '@portal/web';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BankingApi } from '../../contract';
import { isFrameLinked } from './frameMessage';
import type { LinkFrame } from './LinkingFrame';

/**
 * The hosted page links at the aggregator and tells this page, not our server: on its 'linked' message the server
 * mirrors the member's links (POST site/sync), then the bank and ledger queries load again.
 */
export function useSyncOnFrameLink(frame: LinkFrame | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!frame) return;
    const onMessage = (e: MessageEvent) => {
      if (!isFrameLinked(e, frame)) return;
      void api
        .call(BankingApi.siteSync)
        .catch(() => undefined)
        .finally(() => {
          void queryClient.invalidateQueries({ queryKey: ['banking'] });
          void queryClient.invalidateQueries({ queryKey: ['ledger'] });
        });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [api, queryClient, frame]);
}
