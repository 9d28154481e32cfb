import type { BillingProfile } from '../../contract';

/**
 * What the subscription section shows: the profile loading or failed, the member's subscription, a first payment the
 * gateway holds for review (no choice: another start would only answer it), or the choice.
 */
export type SubscriptionView = 'loading' | 'error' | 'running' | 'held' | 'choose';

/** A subscription the member has (a suspended one too): another cannot be started over it. */
const RUNNING = new Set(['active', 'lifetime', 'suspended']);

/**
 * Until the billing profile says whether the member has a subscription, no plan is offered: while it loads, or when it
 * failed, a member who already has one would be asked to subscribe again. A profile that is in decides, even when a
 * refresh of it failed afterwards (it is still the member's last known state).
 */
export function subscriptionView(profile: {
  data?: Pick<BillingProfile, 'SubscriptionStatus' | 'HeldSubscriptionType'> | undefined;
  isError: boolean;
}): SubscriptionView {
  if (profile.data) {
    if (RUNNING.has(profile.data.SubscriptionStatus ?? '')) return 'running';
    return profile.data.HeldSubscriptionType != null ? 'held' : 'choose';
  }
  return profile.isError ? 'error' : 'loading';
}
