import { describe, expect, it } from 'vitest';
import { jwtExpiry, jwtRoles, type KeyValueStore, SessionStore } from './storage';

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
  it('reads the expiry a token states, and nothing from garbage', () => {
    expect(jwtExpiry(token({ exp: 123 }))).toBe(123);
    expect(jwtExpiry('garbage')).toBeNull();
    expect(jwtExpiry('a.%%%.c')).toBeNull();
  });
  it('reads the roles a token names as a hint, and nothing from garbage or a malformed list', () => {
    expect(jwtRoles(token({ roles: ['CareGuard', 'SuperUser'] }))).toEqual(['CareGuard', 'SuperUser']);
    expect(jwtRoles(token({ roles: 'CareGuard' }))).toBeNull();
    expect(jwtRoles(token({ roles: ['CareGuard', 3] }))).toBeNull();
    expect(jwtRoles(token({}))).toBeNull();
    expect(jwtRoles('garbage')).toBeNull();
  });
});
