import { describe, expect, it } from 'vitest';
import { subscriptionView } from './subscriptionView';

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

  it('keeps deciding by the profile it has when a refresh of it fails', () => {
    expect(subscriptionView({ data: { SubscriptionStatus: 'active', HeldSubscriptionType: null }, isError: true })).toBe('running');
    expect(subscriptionView({ data: { SubscriptionStatus: null, HeldSubscriptionType: null }, isError: true })).toBe('choose');
  });

  it('offers no plan while a first payment is held for review, and says the plan; a running membership is shown as such', () => {
    expect(subscriptionView({ data: { SubscriptionStatus: null, HeldSubscriptionType: 12 }, isError: false })).toBe('held');
    expect(subscriptionView({ data: { SubscriptionStatus: 'canceled', HeldSubscriptionType: 0 }, isError: false })).toBe('held');
    expect(subscriptionView({ data: { SubscriptionStatus: 'active', HeldSubscriptionType: 12 }, isError: false })).toBe('running');
  });
});
