import { BANK_CONSTANTS } from '../../access';

const KEY = 'cq.banking.addedAt';

/** Remembers (for this tab) that a bank was just added: the bank list waits for it instead of showing the account as deactivated. */
export function markRecentAdd(now = Date.now()): void {
  sessionStorage.setItem(KEY, String(now));
}

export function recentAdd(lastAddedIso: string | null, now = Date.now()): boolean {
  const local = Number(sessionStorage.getItem(KEY) ?? 0);
  const server = lastAddedIso ? Date.parse(lastAddedIso) : 0;
  return now - Math.max(local, server) < BANK_CONSTANTS.recentAddMs;
}

export function clearRecentAdd(): void {
  sessionStorage.removeItem(KEY);
}
