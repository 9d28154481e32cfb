import { describe, expect, it } from 'vitest';
import { defineWebPlugin } from '../plugin';
import { hintedLanding, rolesHint } from './signedIn';

const token = (payload: object) => `h.${btoa(JSON.stringify(payload)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
const session = (accessToken: string | null) => ({
  tokens: () => (accessToken === null ? null : { accessToken, refreshToken: 'r', expiresAt: 0, lifetime: 900, formToken: 'f' }),
});
const page = () => Promise.resolve({ default: () => null });
const plugin = defineWebPlugin({
  id: 'p',
  i18n: { namespace: 'p', load: () => Promise.resolve({ default: {} }) },
  routes: [
    { path: '/dashboard', access: ['CareGuard'], title: 'p:dashboard', nav: { label: 'p:dashboard', order: 1 }, load: page },
    { path: '/users', access: ['SuperUser'], title: 'p:users', nav: { label: 'p:users', order: 2 }, load: page },
    { path: '/help', access: 'authenticated', title: 'p:help', nav: { label: 'p:help', order: 9 }, load: page },
  ],
});
const brand = { home: '/dashboard' };

describe('the landing page of a session that has just started or was found stored', () => {
  it("is the brand's home when the token's roles may open it", () => {
    expect(hintedLanding(brand, [plugin], session(token({ roles: ['CareGuard'] })))).toBe('/dashboard');
  });
  it('is the first page of the navigation the roles may open when they may not open the home', () => {
    expect(hintedLanding(brand, [plugin], session(token({ roles: ['SuperUser'] })))).toBe('/users');
    expect(hintedLanding(brand, [plugin], session(token({ roles: ['Nobody'] })))).toBe('/help');
  });
  it('is unknown without a session, or with a token that names no roles', () => {
    expect(hintedLanding(brand, [plugin], session(null))).toBeNull();
    expect(hintedLanding(brand, [plugin], session(token({})))).toBeNull();
    expect(hintedLanding(brand, [plugin], session('garbage'))).toBeNull();
  });
  it('reads the roles from the stored access token, unverified, as a hint', () => {
    expect(rolesHint(session(token({ roles: ['CareGuard', 'SuperUser'] })))).toEqual(['CareGuard', 'SuperUser']);
    expect(rolesHint(session(null))).toBeNull();
  });
});
