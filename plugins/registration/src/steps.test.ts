import { REGISTRATION_STEPS } from '@portal/plugin-account/contract';
import { describe, expect, it } from 'vitest';
import { RegistrationMessages } from './contract';
import { cardStep, cardTerms, guardRedirect, RegistrationPaths, screenOfPath, shouldSendStep } from './steps';
import en from './web/i18n/en.json';

const S = RegistrationPaths;
const targets = [
  S.welcome,
  S.start,
  S.profile,
  S.contact,
  S.subscription,
  S.card,
  S.confirmation,
  S.welcomeOld,
  '/dashboard',
  '/member',
  '/login',
  '/activated/abc',
] as const;

/**
 * Spec 01 section 4, every step by every screen: '.' lets the navigation through, a path is where it goes instead.
 * Columns follow `targets`.
 */
const table: Record<number, readonly (string | '.')[]> = {
  0: [S.start, '.', S.start, S.start, S.start, S.start, S.start, S.start, S.start, S.start, '.', '.'],
  1: [S.start, '.', S.start, S.start, S.start, S.start, S.start, S.start, S.start, S.start, '.', '.'],
  2: [S.profile, '.', '.', S.profile, S.profile, S.profile, S.profile, S.profile, S.profile, S.profile, '.', '.'],
  3: [S.contact, '.', '.', '.', S.contact, '.', S.contact, S.contact, S.contact, S.contact, '.', '.'],
  4: [S.subscription, '.', '.', '.', '.', '.', S.subscription, S.subscription, S.subscription, S.subscription, '.', '.'],
  10: [S.confirmation, S.confirmation, S.confirmation, S.confirmation, S.confirmation, S.confirmation, '.', '.', '.', '.', '.', '.'],
};

describe('guardRedirect', () => {
  it('covers every step the server keeps', () => {
    expect(Object.keys(table).map(Number)).toEqual([...REGISTRATION_STEPS]);
  });
  for (const step of REGISTRATION_STEPS) {
    const row = table[step] ?? [];
    it.each(targets.map((t, i) => [t, row[i]] as const))(`step ${step}: %s -> %s`, (target, expected) => {
      expect(guardRedirect(step, target)).toBe(expected === '.' ? null : expected);
    });
  }

  it('matches paths ignoring case and a trailing slash', () => {
    expect(screenOfPath('/Registration/Profile/')).toBe('profile');
    expect(guardRedirect(2, '/REGISTRATION/PROFILE')).toBeNull();
    expect(screenOfPath('/registration/profile/x')).toBeNull();
  });

  it('leaves out the steps a brand skips', () => {
    const none = ['subscription', 'card'] as const;
    expect(guardRedirect(4, S.subscription, none)).toBe(S.contact);
    expect(guardRedirect(4, S.card, none)).toBe(S.contact);
    expect(guardRedirect(4, S.contact, none)).toBeNull();
    expect(guardRedirect(4, '/dashboard', ['subscription'])).toBe(S.card);
    expect(guardRedirect(10, S.subscription, none)).toBe(S.confirmation);
  });
});

describe('step changes', () => {
  it('sends a raise only when it is higher than the stored step', () => {
    expect(shouldSendStep(null, 2)).toBe(true);
    expect(shouldSendStep(2, 3)).toBe(true);
    expect(shouldSendStep(3, 3)).toBe(false);
    expect(shouldSendStep(4, 2)).toBe(false);
  });
});

describe('cardStep', () => {
  const card = (IsSubscription: boolean, IsDefault: boolean) => ({ IsSubscription, IsDefault });
  const base = { profileError: false, profiles: [], subscriptionRunning: false, type: 1, couponValid: false };
  it.each([
    ['a profile error', { ...base, profileError: true }, 10],
    ['no subscription card, monthly', base, 1],
    ['no subscription card, yearly', { ...base, type: 12 }, 1],
    ['lifetime', { ...base, type: 0 }, 3],
    ['a valid coupon', { ...base, type: null, couponValid: true }, 3],
    ['a subscription card that is not the default', { ...base, profiles: [card(true, false)] }, 2],
    ['lifetime beside a subscription card that is not the default (the form: 3 comes before 2)', { ...base, type: 0, profiles: [card(true, false)] }, 3],
    ['a valid coupon beside a subscription card that is not the default', { ...base, couponValid: true, profiles: [card(true, false)] }, 3],
    ['a default card paying a running subscription', { ...base, profiles: [card(true, true)], subscriptionRunning: true }, 'complete'],
    ['a default card and a lifetime coupon', { ...base, profiles: [card(false, true)], subscriptionRunning: true, couponValid: true }, 'complete'],
    ['a default card without a subscription, monthly', { ...base, profiles: [card(false, true)] }, 1],
  ] as const)('%s -> %s', (_, input, expected) => {
    expect(cardStep(input)).toBe(expected);
  });
});

describe("cardTerms: the coupon code in the card screen's address", () => {
  it('without a code decides at once, with the chosen type and nothing to send', () => {
    expect(cardTerms(1, null, 'pending')).toEqual({ state: 'ready', type: 1, code: null, couponValid: false, couponDropped: false });
  });

  it('decides nothing while the check runs: the screen shows its loading state, not the add-card form', () => {
    expect(cardTerms(1, 'LIFE-CARD', 'pending')).toEqual({ state: 'checking' });
    expect(cardTerms(0, 'LIFE-CARD', 'pending')).toEqual({ state: 'checking' });
  });

  it('a valid coupon (Status 0) forces lifetime (0) and keeps the code to send', () => {
    expect(cardTerms(12, 'LIFE-CARD', { Status: 0 })).toEqual({ state: 'ready', type: 0, code: 'LIFE-CARD', couponValid: true, couponDropped: false });
  });

  it.each([1, 2, 3, 4, 5])('an invalid coupon (Status %s) clears the code and keeps the chosen type', (Status) => {
    expect(cardTerms(1, 'STALE', { Status })).toEqual({ state: 'ready', type: 1, code: null, couponValid: false, couponDropped: true });
    expect(cardTerms(0, 'STALE', { Status })).toEqual({ state: 'ready', type: 0, code: null, couponValid: false, couponDropped: true });
  });

  it("a code the call's contract refuses is dropped like an invalid coupon", () => {
    expect(cardTerms(12, 'X'.repeat(41), 'refused')).toEqual({ state: 'ready', type: 12, code: null, couponValid: false, couponDropped: true });
  });

  it('a failed check decides nothing (the screen offers to check again) and sends nothing', () => {
    expect(cardTerms(1, 'LIFE-CARD', 'failed')).toEqual({ state: 'failed' });
  });

  const noCards = { profileError: false, profiles: [], subscriptionRunning: false };
  const stepOf = (terms: ReturnType<typeof cardTerms>) =>
    terms.state === 'ready' ? cardStep({ ...noCards, type: terms.type, couponValid: terms.couponValid }) : null;

  it('a stale code with a monthly choice goes to the card that pays the membership (1), not the add-card form (3)', () => {
    expect(stepOf(cardTerms(1, 'STALE', { Status: 4 }))).toBe(1);
    expect(stepOf(cardTerms(1, null, 'pending'))).toBe(1);
  });

  it('a valid code goes to the add-card form (3) whatever type the address names', () => {
    expect(stepOf(cardTerms(1, 'LIFE-CARD', { Status: 0 }))).toBe(3);
  });
});

describe("the wizard's word-for-word texts", () => {
  it('are what the web shows in English', () => {
    expect(en.subscription.fixErrors).toBe(RegistrationMessages.fixErrors);
  });
});
