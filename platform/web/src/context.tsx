import { type BrandManifest, KernelApi, type LookupItem, roleNames, type SiteConfig } from '@portal/core';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { ApiClient } from './api/client';
import type { KernelWebPlugin } from './plugin';
import type { SessionStore } from './session/storage';

export type { SiteConfig };

export interface Kernel {
  api: ApiClient;
  session: SessionStore;
  brand: BrandManifest;
  plugins: readonly KernelWebPlugin[];
  signOut(opts?: { silent?: boolean }): Promise<void>;
  /**
   * A token handed over in the address (/activated/:token, /t/:token): the session open in this tab ends (on the
   * server too) and everything cached of its user is forgotten, then the handed token is exchanged (once) for this
   * tab's own session, whose tokens are stored. A token the server refuses leaves the tab signed out.
   */
  handOver(accessToken: string): Promise<void>;
  /** `quiet`: no 'refreshed' toast (the expiry watch's refresh for a user at work). */
  refreshSession(quiet?: boolean): Promise<void>;
  /**
   * A session has just started (sign-in): forgets the previous identity, starts the calls that decide whether the first
   * signed-in page may open (identity, navigation guards' preparation) and returns where '/' leads for the new token's
   * roles (null: unknown), so that page opens directly and its code loads beside those calls. What that page does not
   * wait for (lookups, the guards' code) is asked for in the next task, after the caller's navigation has asked for
   * the page.
   */
  sessionStarted(): string | null;
  setImpersonation(memberId: number | null): void;
}

export const KernelContext = createContext<Kernel | null>(null);

export function useKernel(): Kernel {
  const k = useContext(KernelContext);
  if (!k) throw new Error('useKernel outside the app shell');
  return k;
}

export const useApi = () => useKernel().api;
export const useBrand = () => useKernel().brand;

export const queryKeys = { identity: ['kernel', 'identity'], config: ['kernel', 'config'], lookups: ['kernel', 'lookups'] } as const;

/** Query options shared by the hooks and the start-up prefetch (which overlaps them with the page's code). */
export const identityQuery = (api: ApiClient) => ({
  queryKey: queryKeys.identity,
  queryFn: () => api.call(KernelApi.identity, undefined, { notify: false }),
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});
export const lookupsQuery = (api: ApiClient) => ({
  queryKey: queryKeys.lookups,
  queryFn: () => api.call(KernelApi.lookups, undefined, { notify: false }).catch((): LookupItem[] => []),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The signed-in user's identity; fetched once and cached until sign-out. */
export function useIdentity() {
  const { api, session } = useKernel();
  return useQuery({ ...identityQuery(api), enabled: session.tokens() !== null });
}

export function useRoles(): string[] {
  const { data } = useIdentity();
  return data ? roleNames(data) : [];
}

/** GET /config: contacts and service addresses of this site. */
export function useSiteConfig() {
  const { api } = useKernel();
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: () => api.call(KernelApi.config, undefined, { notify: false, skipLoadingBar: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The lookup cache, loaded once by the signed-in layout; empty when loading failed (spec 02 section 7). */
export function useLookups(category?: LookupItem['Category']): LookupItem[] {
  const { api, session } = useKernel();
  // Only with a session (they are refused without one): a page still drawn as its session ends asks for nothing.
  const { data } = useQuery({ ...lookupsQuery(api), enabled: session.tokens() !== null });
  const items = data ?? [];
  return category ? items.filter((i) => i.Category === category) : items;
}
