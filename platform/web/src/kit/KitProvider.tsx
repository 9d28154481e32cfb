import { createContext, type ReactNode, useContext, useMemo } from 'react';

export type NotifyKind = 'success' | 'error' | 'warning' | 'info';
export type Notify = (message: string, kind: NotifyKind) => void;

export interface KitContextValue {
  /** The app's toast; the kit only calls it (spec 02 section 9 owns timing and placement). */
  notify: Notify;
}

// No-op default so the kit renders in isolation (stories, tests) without a toast system.
const KitContext = createContext<KitContextValue>({ notify: () => {} });

export interface KitProviderProps {
  notify: Notify;
  children: ReactNode;
}

export function KitProvider({ notify, children }: KitProviderProps) {
  const value = useMemo(() => ({ notify }), [notify]);
  return <KitContext.Provider value={value}>{children}</KitContext.Provider>;
}

export function useKit(): KitContextValue {
  return useContext(KitContext);
}
