import type { NavigationGuard } from '@portal/web';
import { describe, expect, it, vi } from 'vitest';
import stepGuard from './guard';

/** A session holding `stored` as its registration step, and an API whose register/status answers `server`. */
function setup(stored: number | null, server: number) {
  let step = stored;
  type Context = Parameters<NonNullable<NavigationGuard['prepare']>>[0];
  const session = { registrationStep: () => step, setRegistrationStep: (s: number) => (step = s) } as unknown as Context['session'];
  const call = vi.fn(async () => server);
  const api = { call } as unknown as Context['api'];
  return { session, api, call, step: () => step };
}

describe('the registration step guard, before its first decision', () => {
  it("asks the server when the tab holds no step, and keeps the server's", async () => {
    const s = setup(null, 3);
    await stepGuard.prepare?.({ api: s.api, session: s.session, brand: {} as never });
    expect(s.call).toHaveBeenCalledTimes(1);
    expect(s.step()).toBe(3);
  });

  it('asks the server when the tab holds a step below complete: another browser may have moved on', async () => {
    const s = setup(2, 4);
    await stepGuard.prepare?.({ api: s.api, session: s.session, brand: {} as never });
    expect(s.call).toHaveBeenCalledTimes(1);
    expect(s.step()).toBe(4);
  });

  it('does not call when the tab already holds the complete step: a step never goes down', async () => {
    const s = setup(10, 10);
    await stepGuard.prepare?.({ api: s.api, session: s.session, brand: {} as never });
    expect(s.call).not.toHaveBeenCalled();
    expect(s.step()).toBe(10);
  });
});
