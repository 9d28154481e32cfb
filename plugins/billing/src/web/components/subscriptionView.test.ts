import { describe, expect, it } from 'vitest';
import { canPayMembership, offersPlans, subscriptionView } from './subscriptionView';

describe('the subscription section’s state', () => {
  it('offers no plan while the billing profile loads or after it failed: the member may already have a subscription', () => {
    expect(subscriptionView({ data: undefined, isError: false })).toBe('loading');
    expect(subscriptionView({ data: undefined, isError: true })).toBe('error');
  });

  it('shows the subscription of a member who has one (active, lifetime or suspended), and the choice otherwise', () => {
    for (const status of ['active', 'lifetime', 'suspended'])
      expect(subscriptionView({ data: { SubscriptionStatus: status, HeldSubscriptionType: null }, isError: false }), status).toBe('running');
    for (const status of [null, 'canceled'])
      expect(subscriptionView({ data: { SubscriptionStatus: status, HeldSubscriptionType: null }, isError: false }), String(status)).toBe('choose');
  });

  it('names a canceled membership with its plan (not "no membership yet"), and offers the plans below it', () => {
    for (const type of [1, 12, 0] as const) {
      const view = subscriptionView({ data: { SubscriptionStatus: 'canceled', SubscriptionType: type, HeldSubscriptionType: null }, isError: false });
      expect(view, String(type)).toBe('canceled');
      expect(offersPlans(view)).toBe(true);
    }
    expect(subscriptionView({ data: { SubscriptionStatus: null, SubscriptionType: null, HeldSubscriptionType: null }, isError: false })).toBe('choose');
    expect(offersPlans('choose')).toBe(true);
    for (const view of ['loading', 'error', 'terminated', 'running', 'held'] as const) expect(offersPlans(view), view).toBe(false);
    // A first payment held for review still comes first: no plan is offered while it is decided.
    expect(subscriptionView({ data: { SubscriptionStatus: 'canceled', SubscriptionType: 1, HeldSubscriptionType: 12 }, isError: false })).toBe('held');
  });

  it('shows a terminated membership as terminated, whatever its plan or status, and offers no plan', () => {
    for (const status of ['active', 'lifetime', 'suspended', 'canceled', null]) {
      const view = subscriptionView({
        data: { SubscriptionStatus: status, SubscriptionType: status === 'lifetime' ? 0 : 1, HeldSubscriptionType: null, IsTerminated: true },
        isError: false,
      });
      expect(view, String(status)).toBe('terminated');
      expect(offersPlans(view), String(status)).toBe(false);
    }
    expect(subscriptionView({ data: { SubscriptionStatus: null, HeldSubscriptionType: 12, IsTerminated: true }, isError: false })).toBe('terminated');
    // Still terminated by the last profile known when a refresh fails; not terminated: as before.
    expect(subscriptionView({ data: { SubscriptionStatus: 'lifetime', HeldSubscriptionType: null, IsTerminated: true }, isError: true })).toBe('terminated');
    expect(subscriptionView({ data: { SubscriptionStatus: 'lifetime', HeldSubscriptionType: null, IsTerminated: false }, isError: false })).toBe('running');
    expect(offersPlans('terminated')).toBe(false);
  });

  it('keeps deciding by the profile it has when a refresh of it fails', () => {
    expect(subscriptionView({ data: { SubscriptionStatus: 'active', HeldSubscriptionType: null }, isError: true })).toBe('running');
    expect(subscriptionView({ data: { SubscriptionStatus: null, HeldSubscriptionType: null }, isError: true })).toBe('choose');
  });

  it('offers no plan while a first payment is held for review, and says the plan; a running membership is shown as such', () => {
    expect(subscriptionView({ data: { SubscriptionStatus: null, HeldSubscriptionType: 12 }, isError: false })).toBe('held');
    expect(subscriptionView({ data: { SubscriptionStatus: 'canceled', HeldSubscriptionType: 0 }, isError: false })).toBe('held');
    expect(subscriptionView({ data: { SubscriptionStatus: 'active', HeldSubscriptionType: 12 }, isError: false })).toBe('running');
  });

  it('lets the member choose another card for a monthly or yearly membership that runs, not for the card that pays it', () => {
    const other = { IsSubscription: false };
    const paying = { IsSubscription: true };
    for (const status of ['active', 'suspended']) {
      expect(canPayMembership({ SubscriptionId: 7, SubscriptionStatus: status }, other), status).toBe(true);
      expect(canPayMembership({ SubscriptionId: 7, SubscriptionStatus: status }, paying), status).toBe(false);
    }
    for (const status of ['canceled', 'lifetime', null])
      expect(canPayMembership({ SubscriptionId: 7, SubscriptionStatus: status }, other), String(status)).toBe(false);
    expect(canPayMembership({ SubscriptionId: null, SubscriptionStatus: 'active' }, other)).toBe(false);
    expect(canPayMembership(undefined, other)).toBe(false);
  });
});
