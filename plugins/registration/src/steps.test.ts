import { describe, expect, it } from 'vitest';
import { RegistrationMessages } from './contract';
import { advancedStep, cardStep, guardRedirect, REGISTRATION_STEPS, RegistrationPaths, screenOfPath, shouldSendStep } from './steps';
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
  it('advances only from a lower step', () => {
    expect(advancedStep(0, 2)).toBe(2);
    expect(advancedStep(3, 2)).toBe(3);
    expect(advancedStep(4, 4)).toBe(4);
  });
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
    ['a default card paying a running subscription', { ...base, profiles: [card(true, true)], subscriptionRunning: true }, 'complete'],
    ['a default card and a lifetime coupon', { ...base, profiles: [card(false, true)], subscriptionRunning: true, couponValid: true }, 'complete'],
    ['a default card without a subscription, monthly', { ...base, profiles: [card(false, true)] }, 1],
  ] as const)('%s -> %s', (_, input, expected) => {
    expect(cardStep(input)).toBe(expected);
  });
});

describe("the wizard's word-for-word texts", () => {
  it('are what the web shows in English', () => {
    expect(en.subscription.fixErrors).toBe(RegistrationMessages.fixErrors);
  });
});
