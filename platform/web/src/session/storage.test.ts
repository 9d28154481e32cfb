import { describe, expect, it } from 'vitest';
import { jwtRoles, jwtSubject, type KeyValueStore, SessionStore } from './storage';

const token = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
const memory = (): KeyValueStore => {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};

describe('session storage', () => {
  it('keeps every item under the cq prefix and clears them all on sign-out', () => {
    const store = memory();
    const s = new SessionStore(store);
    s.saveTokens({ access_token: 'a', refresh_token: 'r', expires_in: 900, form_token: 'f' }, 1000);
    s.setRegistrationStep(2);
    expect(store.getItem('cq.accessToken')).toBe('a');
    expect(store.getItem('cq.expiry')).toBe(String(1000 + 900_000));
    expect(s.tokens()).toMatchObject({ refreshToken: 'r', formToken: 'f', lifetime: 900 });
    s.clear();
    expect(s.tokens()).toBeNull();
    expect(s.registrationStep()).toBeNull();
  });
  it('reads the roles a token names as a hint, and nothing from garbage or a malformed list', () => {
    expect(jwtRoles(token({ roles: ['CareGuard', 'SuperUser'] }))).toEqual(['CareGuard', 'SuperUser']);
    expect(jwtRoles(token({ roles: 'CareGuard' }))).toBeNull();
    expect(jwtRoles(token({ roles: ['CareGuard', 3] }))).toBeNull();
    expect(jwtRoles(token({}))).toBeNull();
    expect(jwtRoles('garbage')).toBeNull();
  });
  it('names the user a token is for, as text, and nobody for garbage', () => {
    expect(jwtSubject(token({ sub: 'u-1' }))).toBe('u-1');
    expect(jwtSubject(token({ sub: 7 }))).toBe('7');
    expect(jwtSubject(token({}))).toBeNull();
    expect(jwtSubject('garbage')).toBeNull();
    expect(jwtSubject('a.%%%.c')).toBeNull();
  });
  it('remembers whose session ended in this tab (for the page it returns to), until a sign-out forgets it', () => {
    const s = new SessionStore(memory());
    expect(s.user()).toBeNull();
    s.saveTokens({ access_token: token({ sub: 'alice' }), expires_in: 900 }, 1000);
    expect(s.user()).toBe('alice');
    s.clear();
    expect(s.user()).toBe('alice');
    // Another sign-in names its own user; a second clear without tokens keeps the last one known.
    s.saveTokens({ access_token: token({ sub: 'bob' }), expires_in: 900 }, 1000);
    expect(s.user()).toBe('bob');
    s.clear();
    s.clear();
    expect(s.user()).toBe('bob');
    s.forgetUser();
    expect(s.user()).toBeNull();
  });
});
