import type { NavigationGuard } from '@portal/web';
import { guardRedirect } from '../steps';

/**
 * The registration wizard's step guard (spec 01 section 4), its own chunk. The kernel has run the contribution's
 * `prepare` (./preparation.ts: the server's step) before the first decision; every navigation is then decided from
 * session storage, which the wizard's screens keep up to date.
 */
const stepGuard: NavigationGuard = {
  redirect({ pathname }, { session, brand }) {
    const step = session.registrationStep();
    // Unknown (the server could not be asked): let it through; the server still refuses what is out of order.
    if (step === null || Number.isNaN(step)) return null;
    return guardRedirect(step, pathname, brand.registration.wizard?.skip ?? []);
  },
};

export default stepGuard;
