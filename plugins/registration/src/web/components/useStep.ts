import { AccountApi } from '@portal/plugin-account/contract';
import { useKernel } from '@portal/web';
import { useCallback } from 'react';
import { shouldSendStep } from '../../steps';

/**
 * Raises the registration step: sent to the server only when higher than the stored one (spec 01 section 4); the
 * server's answer is stored in session storage, where the step guard reads it.
 */
export function useRaiseStep() {
  const { api, session } = useKernel();
  return useCallback(
    async (to: number): Promise<number> => {
      const stored = session.registrationStep();
      if (!shouldSendStep(stored, to)) return stored ?? to;
      const step = await api.call(AccountApi.raiseRegisterStatus, { query: { status: to } }, { notify: false });
      session.setRegistrationStep(step);
      return step;
    },
    [api, session],
  );
}

/** The steps this brand's wizard leaves out (brand manifest registration.wizard.skip). */
export function useSkipped(): readonly ('subscription' | 'card')[] {
  return useKernel().brand.registration.wizard?.skip ?? [];
}
