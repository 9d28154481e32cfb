import { REGISTRATION_STEPS } from '@portal/plugin-account/contract';
import type { NavigationGuardContext, NavigationGuardPreparation } from '@portal/web';
import { describe, expect, it, vi } from 'vitest';
import { RegistrationPaths } from '../paths';
import { guardRedirect } from '../steps';
import stepGuard from './guard';
import { passesRegistered, prepareStep } from './preparation';

/** A session holding `stored` as its registration step, and an API whose register/status answers `server`. */
function setup(stored: number | null, server: number) {
  let step = stored;
  const session = { registrationStep: () => step, setRegistrationStep: (s: number) => (step = s) } as unknown as NavigationGuardPreparation['session'];
  const call = vi.fn(async () => server);
  const api = { call } as unknown as NavigationGuardPreparation['api'];
  return { session, api, call, step: () => step };
}

describe('the registration step guard, before its first decision', () => {
  it("asks the server when the tab holds no step, and keeps the server's", async () => {
    const s = setup(null, 3);
    await prepareStep({ api: s.api, session: s.session, brand: {} as never });
    expect(s.call).toHaveBeenCalledTimes(1);
    expect(s.step()).toBe(3);
  });

  it('asks the server when the tab holds a step below complete: another browser may have moved on', async () => {
    const s = setup(2, 4);
    await prepareStep({ api: s.api, session: s.session, brand: {} as never });
    expect(s.call).toHaveBeenCalledTimes(1);
    expect(s.step()).toBe(4);
  });

  it('does not call when the tab already holds the complete step: a step never goes down', async () => {
    const s = setup(10, 10);
    await prepareStep({ api: s.api, session: s.session, brand: {} as never });
    expect(s.call).not.toHaveBeenCalled();
    expect(s.step()).toBe(10);
  });
});

describe("the step guard's quick pass (the gate opens without the guard's code)", () => {
  const context = (step: number | null) => ({ session: { registrationStep: () => step }, brand: { registration: {} } }) as unknown as NavigationGuardContext;
  const paths = ['/dashboard', '/payment/ledger', '/Dashboard/', '/welcome-old', '/welcome', '/WELCOME/', ...Object.values(RegistrationPaths)];

  it("passes a registered member's pages but not the wizard's screens, whatever their case or trailing slash", () => {
    expect(passesRegistered({ pathname: '/dashboard', search: '' }, context(10))).toBe(true);
    expect(passesRegistered({ pathname: '/payment/ledger', search: '?page=2' }, context(10))).toBe(true);
    for (const p of [RegistrationPaths.confirmation, RegistrationPaths.start, '/Welcome/', '/registration/card/'])
      expect(passesRegistered({ pathname: p, search: '' }, context(10))).toBe(false);
  });

  it('passes nothing below the complete step or with no step known: the rules decide those', () => {
    for (const step of [null, 0, 1, 2, 3, 4]) expect(passesRegistered({ pathname: '/dashboard', search: '' }, context(step))).toBe(false);
  });

  it('never passes a path the guard would redirect, for every step and path', () => {
    for (const step of REGISTRATION_STEPS)
      for (const pathname of paths)
        if (passesRegistered({ pathname, search: '' }, context(step))) {
          expect(guardRedirect(step, pathname)).toBeNull();
          expect(stepGuard.redirect({ pathname, search: '' }, context(step))).toBeNull();
        }
  });
});
