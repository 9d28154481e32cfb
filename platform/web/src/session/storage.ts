/** Session storage under the spec's `cq` prefix (spec 01 sections 3 and 9). */
export const STORAGE_PREFIX = 'cq';
const key = (k: string) => `${STORAGE_PREFIX}.${k}`;

/** Default token lifetime placeholder of spec 01 section 9, used until a token states its own. */
export const DEFAULT_LIFETIME_SECONDS = 10000;

export interface StoredTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds at which the access token expires. */
  expiresAt: number;
  /** Seconds the access token was issued for (expires_in). */
  lifetime: number;
  formToken: string | null;
}

export interface KeyValueStore {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
}

const memory = new Map<string, string>();
const fallback: KeyValueStore = {
  getItem: (k) => memory.get(k) ?? null,
  setItem: (k, v) => void memory.set(k, v),
  removeItem: (k) => void memory.delete(k),
};

export class SessionStore {
  /** The user of the last session cleared in this tab (see user()); memory only, the page load's. */
  private ended: string | null = null;

  constructor(private readonly store: KeyValueStore = typeof sessionStorage === 'undefined' ? fallback : sessionStorage) {}

  /**
   * Whose session this tab holds, as its access token names them (unverified), else whose session ended last in this
   * tab (a refused refresh, a 401, a timed-out sign-out clear the tokens first): the user a page left for the sign-in
   * page is kept for (spec 01 section 2), so only that user comes back to it. null: nobody since the tab's last
   * deliberate sign-out (forgetUser) or its load.
   */
  user(): string | null {
    const t = this.tokens();
    return (t && jwtSubject(t.accessToken)) ?? this.ended;
  }

  /** A deliberate sign-out: the next user's sign-in owes nothing to this one's pages. */
  forgetUser(): void {
    this.ended = null;
  }

  tokens(): StoredTokens | null {
    const accessToken = this.store.getItem(key('accessToken'));
    if (!accessToken) return null;
    return {
      accessToken,
      refreshToken: this.store.getItem(key('refreshToken')),
      expiresAt: Number(this.store.getItem(key('expiry')) ?? 0),
      lifetime: Number(this.store.getItem(key('lifetime')) ?? DEFAULT_LIFETIME_SECONDS),
      formToken: this.store.getItem(key('formToken')),
    };
  }

  saveTokens(t: { access_token: string; refresh_token?: string | null; expires_in: number; form_token?: string | null }, now = Date.now()): void {
    this.store.setItem(key('accessToken'), t.access_token);
    if (t.refresh_token) this.store.setItem(key('refreshToken'), t.refresh_token);
    else this.store.removeItem(key('refreshToken'));
    this.store.setItem(key('expiry'), String(now + t.expires_in * 1000));
    this.store.setItem(key('lifetime'), String(t.expires_in));
    if (t.form_token) this.store.setItem(key('formToken'), t.form_token);
    else this.store.removeItem(key('formToken'));
  }

  registrationStep(): number | null {
    const v = this.store.getItem(key('registrationStep'));
    return v === null ? null : Number(v);
  }

  setRegistrationStep(step: number): void {
    this.store.setItem(key('registrationStep'), String(step));
  }

  /** The database position after this tab's last change (`x-read-after`), kept across a reload of the tab. */
  readAfter(): string | null {
    return this.store.getItem(key('readAfter'));
  }

  setReadAfter(position: string): void {
    this.store.setItem(key('readAfter'), position);
  }

  /** Sign-out clears every stored item (and remembers whose session it was: see user()). */
  clear(): void {
    this.ended = this.user();
    for (const k of ['accessToken', 'refreshToken', 'expiry', 'lifetime', 'formToken', 'registrationStep', 'readAfter']) this.store.removeItem(key(k));
  }
}

function jwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as unknown;
    return json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The user an access token names (its subject), unverified, as text; null when it names none. */
export function jwtSubject(token: string): string | null {
  const sub = jwtPayload(token)?.sub;
  return typeof sub === 'string' || typeof sub === 'number' ? String(sub) : null;
}

/**
 * The roles an access token names, unverified: a hint for what to load first (the landing page, its widgets) before
 * the identity call answers. Access is still decided by the identity answer and, for every call, by the server.
 */
export function jwtRoles(token: string): string[] | null {
  const roles = jwtPayload(token)?.roles;
  return Array.isArray(roles) && roles.every((r) => typeof r === 'string') ? roles : null;
}
