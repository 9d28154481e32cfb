import { declareEndpoint } from '@portal/core';
import type { AccountApi } from '@portal/plugin-account/contract';
import type { NavigationGuardMeta } from '@portal/web';
import { REGISTRATION_COMPLETE, RegistrationPaths, wizardPathKey } from '../paths';

/**
 * The step guard's data in the plugin's manifest (so in the entry chunk): what the kernel runs before the guard's own
 * code is in. Kept to the call and a comparison; the step rules (steps.ts) load with the guard.
 */

/** GET user/register/status, declared by its type: no zod in the entry. */
const registerStatus = declareEndpoint<{ response: (typeof AccountApi.registerStatus)['response'] }>()({
  method: 'GET',
  path: '/api/account/user/register/status',
});

const WIZARD_PATHS: readonly string[] = Object.values(RegistrationPaths);

/**
 * Before the guard's first decision for a signed-in user, reads the step from the server, which wins over a stale one
 * in session storage (another device or browser moved on); the kernel starts it beside the identity call. A step never
 * goes down (the server refuses a lower one), so a tab that already holds the complete step has nothing to learn and
 * makes no call (a reload of a registered member's page waits for one round trip less).
 */
export const prepareStep: NonNullable<NavigationGuardMeta['prepare']> = async ({ api, session }) => {
  if ((session.registrationStep() ?? 0) >= REGISTRATION_COMPLETE) return;
  const step = await api.call(registerStatus, undefined, { notify: false });
  session.setRegistrationStep(step);
};

/**
 * A registered member (complete step) opens every page but the wizard's own screens (spec 01 section 4): those the
 * gate lets through without waiting for the guard's code. For the wizard's screens, or a step below complete, the
 * guard's rules decide.
 */
export const passesRegistered: NonNullable<NavigationGuardMeta['passes']> = ({ pathname }, { session }) =>
  (session.registrationStep() ?? 0) >= REGISTRATION_COMPLETE && !WIZARD_PATHS.includes(wizardPathKey(pathname));
