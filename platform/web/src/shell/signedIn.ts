import type { BrandManifest } from '@portal/core';
import type { QueryClient } from '@tanstack/react-query';
import { identityQuery, type Kernel, lookupsQuery } from '../context';
import type { KernelWebPlugin } from '../plugin';
import { jwtRoles, type SessionStore } from '../session/storage';
import { prepareGuardsEarly } from './NavigationGate';
import { flattenRoutes, homePath } from './routes';

/** The roles the stored access token names: a hint (the token is not verified here), or null when nobody is signed in. */
export function rolesHint(session: Pick<SessionStore, 'tokens'>): readonly string[] | null {
  const tokens = session.tokens();
  return tokens ? jwtRoles(tokens.accessToken) : null;
}

/**
 * The page '/' leads to for the stored session, from the roles its access token names, so that page's code, strings
 * and widgets can load beside the identity call instead of after it and the home redirect. Null without such a token.
 * The page itself still waits for the identity answer to decide access.
 */
export function hintedLanding(brand: Pick<BrandManifest, 'home'>, plugins: readonly KernelWebPlugin[], session: Pick<SessionStore, 'tokens'>): string | null {
  const roles = rolesHint(session);
  return roles ? homePath(brand.home, flattenRoutes(plugins), roles) : null;
}

/**
 * A session has just started (sign-in) or was found stored (start-up): ask for the identity and the lookups and
 * prepare the navigation guards now, beside the first signed-in page's code, not after it.
 */
export function prefetchSignedIn(kernel: Kernel, queryClient: QueryClient): void {
  void queryClient.prefetchQuery(identityQuery(kernel.api));
  void queryClient.prefetchQuery(lookupsQuery(kernel.api));
  prepareGuardsEarly(kernel);
}
