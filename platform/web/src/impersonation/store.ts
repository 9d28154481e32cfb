import { impersonationAtom, kernelStore } from '../store';

const KEY = 'cq.impersonate';
const CHANNEL = 'cq-impersonation';

/** Impersonation is kept per browser (localStorage) and told to the other tabs, which refresh their data. */
export function readImpersonation(): number | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as { MemberID?: unknown };
    return typeof v.MemberID === 'number' ? v.MemberID : null;
  } catch {
    return null;
  }
}

let channel: BroadcastChannel | null = null;

/** Loads the stored value before the first request and follows changes from other tabs. */
export function initImpersonation(onChange: () => void): void {
  kernelStore.set(impersonationAtom, readImpersonation());
  const apply = () => {
    const v = readImpersonation();
    if (v !== kernelStore.get(impersonationAtom)) {
      kernelStore.set(impersonationAtom, v);
      onChange();
    }
  };
  if (typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = apply;
  }
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) apply();
  });
}

export function setImpersonation(memberId: number | null, onChange: () => void): void {
  if (memberId === null) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify({ MemberID: memberId }));
  kernelStore.set(impersonationAtom, memberId);
  channel?.postMessage({ MemberID: memberId });
  onChange();
}
