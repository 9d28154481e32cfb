import type { BillingProfile, CardProfile } from '../../contract';

/**
 * What the subscription section shows: the profile loading or failed, a terminated membership (no plan, no status: it
 * is reactivated on the profile), the member's subscription, a first payment the gateway holds for review (no choice:
 * another start would only answer it), a membership that was canceled (its plan, then the choice), or the choice.
 */
export type SubscriptionView = 'loading' | 'error' | 'terminated' | 'running' | 'held' | 'canceled' | 'choose';

/** A subscription the member has (a suspended one too): another cannot be started over it. */
const RUNNING = new Set(['active', 'lifetime', 'suspended']);

/**
 * Until the billing profile says whether the member has a subscription, no plan is offered: while it loads, or when it
 * failed, a member who already has one would be asked to subscribe again. A profile that is in decides, even when a
 * refresh of it failed afterwards (it is still the member's last known state).
 */
export function subscriptionView(profile: {
  data?: (Pick<BillingProfile, 'SubscriptionStatus' | 'HeldSubscriptionType'> & Partial<Pick<BillingProfile, 'SubscriptionType' | 'IsTerminated'>>) | undefined;
  isError: boolean;
}): SubscriptionView {
  if (profile.data) {
    // A terminated member can start nothing (the server refuses it) and a lifetime membership is not "active for life"
    // while terminated: the section says the membership is terminated, whatever its plan.
    if (profile.data.IsTerminated) return 'terminated';
    if (RUNNING.has(profile.data.SubscriptionStatus ?? '')) return 'running';
    if (profile.data.HeldSubscriptionType != null) return 'held';
    // A canceled membership is named with its plan (not "no membership yet"); the plans are offered below it.
    return profile.data.SubscriptionStatus === 'canceled' && profile.data.SubscriptionType != null ? 'canceled' : 'choose';
  }
  return profile.isError ? 'error' : 'loading';
}

/** Whether the plans are offered: to a member with no membership, or one whose membership was canceled. */
export const offersPlans = (view: SubscriptionView) => view === 'choose' || view === 'canceled';

/**
 * Whether a card may be chosen to pay the membership (POST customer/subscription): only while a monthly or yearly
 * membership runs at the gateway (active, or suspended by a declined renewal), and for a card that does not pay it yet.
 */
export function canPayMembership(
  profile: Pick<BillingProfile, 'SubscriptionId' | 'SubscriptionStatus'> | undefined,
  card: Pick<CardProfile, 'IsSubscription'>,
): boolean {
  if (!profile?.SubscriptionId) return false;
  return (profile.SubscriptionStatus === 'active' || profile.SubscriptionStatus === 'suspended') && !card.IsSubscription;
}
