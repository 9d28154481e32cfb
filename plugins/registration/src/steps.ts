import { REGISTRATION_COMPLETE, RegistrationPaths, wizardPathKey } from './paths';

/**
 * The registration step and the step guard (spec 01 section 4), as pure functions. Zod-free and React-free: the
 * navigation guard (loaded on every signed-in page) and the server's rules import it.
 */

export { REGISTRATION_COMPLETE, RegistrationPaths };
export type RegistrationScreen = 'start' | 'profile' | 'contact' | 'subscription' | 'card' | 'confirmation';
export const REGISTRATION_SCREENS: readonly RegistrationScreen[] = ['start', 'profile', 'contact', 'subscription', 'card', 'confirmation'];

/** Steps a brand's wizard leaves out (brand manifest registration.wizard.skip). */
export type SkippedSteps = readonly ('subscription' | 'card')[];

/** The screen of a step: 0-1 start, 2 profile, 3 contact, 4 subscription (card when the brand skips it), 10 confirmation. */
export function screenOfStep(step: number, skip: SkippedSteps = []): RegistrationScreen {
  if (step >= REGISTRATION_COMPLETE) return 'confirmation';
  if (step >= 4) return skip.includes('subscription') ? (skip.includes('card') ? 'contact' : 'card') : 'subscription';
  if (step === 3) return 'contact';
  if (step === 2) return 'profile';
  return 'start';
}

/** Below 10 the screens a step allows: 0-1 start; 2 start and profile; 3 contact, profile, start and card; 4 also subscription. */
export function allowedScreens(step: number, skip: SkippedSteps = []): readonly RegistrationScreen[] {
  let screens: readonly RegistrationScreen[];
  if (step >= REGISTRATION_COMPLETE) screens = REGISTRATION_SCREENS;
  else if (step >= 4) screens = ['contact', 'profile', 'start', 'card', 'subscription'];
  else if (step === 3) screens = ['contact', 'profile', 'start', 'card'];
  else if (step === 2) screens = ['start', 'profile'];
  else screens = ['start'];
  return screens.filter((s) => !(skip as readonly string[]).includes(s));
}

/** The wizard screen a path names ('welcome' for the wizard's entry), or null for any other page. */
export function screenOfPath(pathname: string): RegistrationScreen | 'welcome' | null {
  const p = wizardPathKey(pathname);
  if (p === RegistrationPaths.welcome) return 'welcome';
  for (const s of REGISTRATION_SCREENS) if (p === RegistrationPaths[s]) return s;
  return null;
}

/** Pages open whatever the step: sign-in and the activated hand-off (spec 01 section 4), and the e-mailed links. */
export function isAlwaysAllowed(pathname: string): boolean {
  const p = pathname.toLowerCase();
  return p === '/login' || p.startsWith('/login/') || p === '/register' || p.startsWith('/activated/');
}

/**
 * Where a navigation to `pathname` goes, given the stored step: null lets it through, else the path to go to instead.
 * - Login and activated screens are always allowed.
 * - Below 10 navigation is forced: only the step's screens are allowed (allowedScreens); any other target, the
 *   wizard's entry /welcome included, goes to the current step's screen.
 * - If the stored step is higher than the screen, the user is sent to that step's screen: at 10 every wizard screen
 *   (and /welcome) goes to confirmation, and every other page is open.
 */
export function guardRedirect(step: number, pathname: string, skip: SkippedSteps = []): string | null {
  if (isAlwaysAllowed(pathname)) return null;
  const screen = screenOfPath(pathname);
  if (step >= REGISTRATION_COMPLETE) {
    if (screen === null || screen === 'confirmation') return null;
    return RegistrationPaths.confirmation;
  }
  if (screen !== null && screen !== 'welcome' && allowedScreens(step, skip).includes(screen)) return null;
  return RegistrationPaths[screenOfStep(step, skip)];
}

/** Screens set the step: start 2, profile 3, contact 4, card confirmed 10. */
export const STEP_SET_BY: Readonly<Record<'start' | 'profile' | 'contact' | 'card', number>> = { start: 2, profile: 3, contact: 4, card: 10 };

/** A raise goes to the server only when the new value is higher than the stored one. */
export const shouldSendStep = (stored: number | null, next: number): boolean => stored === null || next > stored;

/**
 * Which step of the card screen shows after the billing profile loads (spec 01 section 4):
 * 10 on a profile error; 'complete' when a default card exists (the step becomes 10, then confirmation);
 * 1 when there is no subscription card and the type is not lifetime (add the card that pays the membership);
 * 3 (the add-card form) when the coupon is valid or the type is lifetime; 2 when a subscription card exists.
 */
export type CardStep = 10 | 1 | 2 | 3 | 'complete';
export function cardStep(input: {
  profileError: boolean;
  profiles: readonly { IsSubscription: boolean; IsDefault: boolean }[] | null;
  subscriptionRunning: boolean;
  type: number | null;
  couponValid: boolean;
}): CardStep {
  if (input.profileError || !input.profiles) return 10;
  const hasDefault = input.profiles.some((p) => p.IsDefault);
  const hasSubscription = input.profiles.some((p) => p.IsSubscription);
  const lifetime = input.type === 0 || input.couponValid;
  if (hasDefault && (input.subscriptionRunning || hasSubscription)) return 'complete';
  if (!hasSubscription && !lifetime) return 1;
  // The spec's order: a valid coupon or lifetime shows the form even beside a subscription card (a lifetime
  // membership is paid with the card added now, never charged to an older card without the member's say).
  if (lifetime) return 3;
  return 2;
}

/**
 * The answer about the coupon code in the card screen's address: the check's Status (0 is valid), 'pending' while
 * POST subscription/check-coupon runs, 'failed' when that call failed, 'refused' when the code breaks the call's
 * contract (too long), so it cannot be a valid coupon and is not sent.
 */
export type CouponAnswer = { Status: number } | 'pending' | 'failed' | 'refused';

/** What the card screen runs with once its coupon is decided, or why it cannot decide yet. */
export type CardTerms<T extends number> =
  | { state: 'checking' }
  | { state: 'failed' }
  | { state: 'ready'; type: T | 0; code: string | null; couponValid: boolean; couponDropped: boolean };

/**
 * The card screen's membership type and coupon (spec 01 sections 4 and 5): the address's code counts only once the
 * check answered. A valid coupon (Status 0) forces lifetime (0) and keeps the code; an invalid one clears the code
 * (it is never sent) and keeps the chosen type, as if there were no coupon. Until the check answers there is nothing
 * to decide ('checking'); a failed check decides nothing either ('failed': the screen offers to check again).
 */
export function cardTerms<T extends number>(type: T, code: string | null, answer: CouponAnswer): CardTerms<T> {
  if (code === null) return { state: 'ready', type, code: null, couponValid: false, couponDropped: false };
  if (answer === 'pending') return { state: 'checking' };
  if (answer === 'failed') return { state: 'failed' };
  if (answer !== 'refused' && answer.Status === 0) return { state: 'ready', type: 0, code, couponValid: true, couponDropped: false };
  return { state: 'ready', type, code: null, couponValid: false, couponDropped: true };
}

/** The wizard's tabs in order, with the screens each covers. */
export const WIZARD_TABS = [
  { id: 'personal', screens: ['start', 'profile', 'contact'] },
  { id: 'subscription', screens: ['subscription'] },
  { id: 'card', screens: ['card'] },
  { id: 'finish', screens: ['confirmation'] },
] as const satisfies readonly { id: string; screens: readonly RegistrationScreen[] }[];
export type WizardTab = (typeof WIZARD_TABS)[number]['id'];
