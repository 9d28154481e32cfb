import type { RegistrationRules } from '@portal/plugin-account/service';
import type { BillingService } from '@portal/plugin-billing/service';
import { RegistrationMessages } from '../contract';

/**
 * Completing registration (step 10) needs a running membership and a default card, or a lifetime coupon (issue 14),
 * unless the brand's wizard skips those steps (brand manifest registration.wizard.skip). Brands without a wizard and
 * accounts without a member record have nothing to complete.
 */
export function registrationRules(billing: () => BillingService): RegistrationRules {
  return {
    async canComplete({ memberId, brand }) {
      const wizard = brand?.registration.wizard;
      if (!wizard || memberId === null) return null;
      const needsSubscription = !wizard.skip.includes('subscription');
      const needsCard = !wizard.skip.includes('card');
      if (!needsSubscription && !needsCard) return null;
      const p = await billing().profile(memberId);
      if (p.SubscriptionStatus === 'lifetime' && p.CouponCode) return null;
      if (needsSubscription && p.SubscriptionStatus !== 'active' && p.SubscriptionStatus !== 'lifetime') return RegistrationMessages.noSubscription;
      if (needsCard && !p.Profiles.some((c) => c.IsDefault)) return RegistrationMessages.noDefaultCard;
      return null;
    },
  };
}
