import type { BrandManifest } from '@portal/core';
import type { QueryClient } from '@tanstack/react-query';
import { identityQuery, type Kernel, lookupsQuery } from '../context';
import type { KernelWebPlugin } from '../plugin';
import { jwtRoles, type SessionStore } from '../session/storage';
import { loadGuardsEarly, prepareGuardsEarly } from './NavigationGate';
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
 * A session has just started (sign-in) or was found stored (start-up): ask for what decides whether the first signed-in
 * page may open, the identity and the navigation guards' preparation, now, before that page's code and data. Over
 * HTTP/1.1 a browser opens at most six connections to a site and the landing page asks for a dozen things at once:
 * what is asked for first goes first.
 */
export function prefetchSignedIn(kernel: Kernel, queryClient: QueryClient): void {
  void queryClient.prefetchQuery(identityQuery(kernel.api));
  prepareGuardsEarly(kernel);
}

/**
 * What a signed-in session wants but the first page does not wait for, asked for after that page's code and data:
 * the lookups (the layout warms their cache; pages proceed without them) and the guards' code (a prepared guard that
 * passes the page does not hold it).
 */
export function prefetchAfterPage(kernel: Kernel, queryClient: QueryClient): void {
  void queryClient.prefetchQuery(lookupsQuery(kernel.api));
  loadGuardsEarly();
}
