import { KernelApi } from '@portal/core';
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../api/client';
import { type PagePlace, returnState } from '../session/after-sign-in';
import type { SessionStore } from '../session/storage';

export interface SessionFlowDeps {
  router: { readonly state: { readonly location: PagePlace }; navigate(to: string, opts?: { state?: unknown; flushSync?: boolean }): Promise<void> };
  queryClient: Pick<QueryClient, 'clear'>;
  session: Pick<SessionStore, 'tokens' | 'clear' | 'user' | 'forgetUser'>;
  api: Pick<ApiClient, 'call'>;
  /** The session ended: nobody is acted for any more (in every tab). */
  endImpersonation(): void;
  /** 'Your session has ended. Please sign in again.' (one toast, keyed, however many calls find it ended). */
  toastEnded(): void;
}

const isLoginPage = (pathname: string) => pathname.toLowerCase() === '/login';

/**
 * How a session ends in the tab: the user signs out, it runs out (silent sign-out), or a call finds it ended (the API
 * client has cleared the tokens). The signed-in page leaves for the sign-in page before its cache goes: a page still
 * drawn would ask again for what was cleared, with no token (answered 401, a second 'session ended'), and its guard
 * would send it to the sign-in page itself, to come back to it. The move is drawn at once (flushSync): the router's
 * moves are otherwise drawn later (a React transition), after its promise has resolved, the old page still up.
 * Loaded after the first page (startApp's `flow`): nothing on the sign-in path needs it.
 */
export function sessionFlow(deps: SessionFlowDeps) {
  const { router, queryClient, session } = deps;
  let signingOut = false;
  return {
    /**
     * Sign-out. `silent`: the session ran out (not one the user ended), which says so and comes back to this page after
     * the same user's next sign-in (spec 01 section 2), as one the API found ended does.
     */
    async signOut({ silent = false }: { silent?: boolean } = {}): Promise<void> {
      const here = router.state.location;
      const back = silent ? returnState(here, session.user()) : undefined;
      signingOut = true;
      try {
        if (session.tokens()) await deps.api.call(KernelApi.signout, undefined, { notify: false }).catch(() => {});
        if (silent) deps.toastEnded();
        // The pages go while the tokens and the cache are whole: nothing on them asks for anything as they leave.
        if (!isLoginPage(router.state.location.pathname)) await router.navigate('/login', { state: back, flushSync: true });
        session.clear();
        // A user who signed out owes the next sign-in nothing: a page asked for from here on is followed for anyone.
        if (!silent) session.forgetUser();
        queryClient.clear();
        deps.endImpersonation();
      } finally {
        signingOut = false;
      }
    },

    /**
     * A call found the session ended (a refused refresh, a 401): the tokens are gone. The user is told why and goes to
     * the sign-in page, to come back to this page after the same user's sign-in. Already on /login (a sign-out's last
     * calls answered after it got there, a stored session found ended there) it stays, quietly, keeping the page it
     * came from; during a sign-out, the sign-out says what there is to say.
     */
    sessionEnded(): void {
      if (signingOut) return;
      const here = router.state.location;
      if (isLoginPage(here.pathname)) {
        queryClient.clear();
        return;
      }
      deps.toastEnded();
      // As at a sign-out, nobody is acted for once the session is gone (the next user of this browser may be another).
      void router.navigate('/login', { state: returnState(here, session.user()), flushSync: true }).finally(() => {
        queryClient.clear();
        deps.endImpersonation();
      });
    },
  };
}
