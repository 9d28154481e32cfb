import { useNavigate } from 'react-router-dom';

/**
 * "Back to where I came from" across pages: a link that opens a page from a list puts the list's address (with its
 * filters, sort and page in the query) and the back link's words (an i18n key, "namespace:key") in the history
 * entry's state; the opened page offers that way back, else its own default. It lives in the history entry, so a
 * reload or Back then Forward keeps it, and a shared link (no state) shows the page's default way back.
 */
export interface CameFrom {
  /** Where the back link goes: an address of this site (path and query). */
  readonly path: string;
  /** The back link's words, an i18n key with its namespace, e.g. 'support:members.back'. */
  readonly label: string;
}

/** The navigation state a link passes: `<Link to=… state={cameFromState(location, 'support:members.back')}>`. */
export function cameFromState(place: { readonly pathname: string; readonly search: string }, label: string): { cameFrom: CameFrom } {
  return { cameFrom: { path: `${place.pathname}${place.search}`, label } };
}

/**
 * The way back a history entry's state holds, or null. Anything else in the state, or a path that is not this
 * site's own (an absolute URL, a protocol-relative '//host', a backslash trick), is ignored: state can be written
 * by any script on the page through history.pushState, so a back link never leads off the site.
 */
export function readCameFrom(state: unknown): CameFrom | null {
  if (typeof state !== 'object' || state === null) return null;
  const from = (state as { cameFrom?: unknown }).cameFrom;
  if (typeof from !== 'object' || from === null) return null;
  const { path, label } = from as { path?: unknown; label?: unknown };
  if (typeof path !== 'string' || typeof label !== 'string') return null;
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  if (!/^[\w-]+:[\w.-]+$/.test(label)) return null;
  return { path, label };
}

/**
 * Whether the history entry's state (the router's: `idx` counts this tab's in-app entries from 0) has an entry of
 * this site before it: only then does Back stay in the app.
 */
export const hasInAppBack = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && typeof (state as { idx?: unknown }).idx === 'number' && (state as { idx: number }).idx > 0;

/**
 * A Cancel that goes back where the user came from: Back when the page was reached inside the app, else `fallback`
 * (a page opened from a shared link or a reload of its first entry; Back would leave the site or do nothing).
 */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return () => {
    if (hasInAppBack(window.history.state)) navigate(-1);
    else navigate(fallback, { replace: true });
  };
}
