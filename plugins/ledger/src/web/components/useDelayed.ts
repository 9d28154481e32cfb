import { useActingMemberId } from '@portal/web';
import { useEffect, useState } from 'react';

/** Dashboard data loads after 500 ms (spec 02 section 9), so the page renders first. */
export const DASHBOARD_DELAY_MS = 500;

export function useDelayed(ms = DASHBOARD_DELAY_MS): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const id = setTimeout(() => setReady(true), ms);
    return () => clearTimeout(id);
  }, [ms]);
  return ready;
}

/**
 * When a widget or chart of the member's ledger may call: after the delay, and only for a user acting for a member.
 * A SuperUser or CareSupport user acting for nobody has no ledger (the server refuses the call): the dashboard and the
 * trends page leave the parts of one member's data out for them (`memberData`); `noMember` tells a part shown anyway
 * (the balance gauge of an account) to show a hint to choose a member instead of calling.
 */
export function useMemberLedger(): { ready: boolean; noMember: boolean; delayed: boolean; member: number | null | undefined } {
  const delayed = useDelayed();
  const member = useActingMemberId();
  return { ready: delayed && member != null, noMember: member === null, delayed, member };
}
