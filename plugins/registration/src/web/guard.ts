import { declareEndpoint } from '@portal/core';
import type { AccountApi } from '@portal/plugin-account/contract';
import type { NavigationGuard } from '@portal/web';
import { guardRedirect, REGISTRATION_COMPLETE } from '../steps';

/** GET user/register/status, declared by type only: the guard loads on every signed-in page and carries no zod. */
const registerStatus = declareEndpoint<{ response: (typeof AccountApi.registerStatus)['response'] }>()({
  method: 'GET',
  path: '/api/account/user/register/status',
});

/**
 * The registration wizard's step guard (spec 01 section 4). Before its first decision for a signed-in user it reads
 * the step from the server, which wins over a stale one in session storage (another device or browser moved on);
 * then every navigation is decided from session storage, which the wizard's screens keep up to date. A step only
 * rises (the server refuses a lower one), so a tab that already holds the complete step has nothing to learn: it
 * decides at once, without the call (a reload of a registered member's page waits for one round trip less).
 */
const stepGuard: NavigationGuard = {
  async prepare({ api, session }) {
    if ((session.registrationStep() ?? 0) >= REGISTRATION_COMPLETE) return;
    const step = await api.call(registerStatus, undefined, { notify: false });
    session.setRegistrationStep(step);
  },
  redirect({ pathname }, { session, brand }) {
    const step = session.registrationStep();
    // Unknown (the server could not be asked): let it through; the server still refuses what is out of order.
    if (step === null || Number.isNaN(step)) return null;
    return guardRedirect(step, pathname, brand.registration.wizard?.skip ?? []);
  },
};

export default stepGuard;
