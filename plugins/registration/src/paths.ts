/** The complete registration step (spec 01 section 4): every page opens, and the wizard's screens go to Finish. */
export const REGISTRATION_COMPLETE = 10;

/**
 * The wizard's screens and their paths (spec 01 section 2). A module of its own: the web entry names these paths for
 * its routes, and the step rules (steps.ts) load with the navigation guard instead of with the entry.
 */
export const RegistrationPaths = {
  welcome: '/welcome',
  start: '/registration/start',
  profile: '/registration/profile',
  contact: '/registration/contact',
  subscription: '/registration/subscription',
  card: '/registration/card',
  confirmation: '/registration/confirmation',
  welcomeOld: '/welcome-old',
} as const;

/** A path as the wizard's rules compare it: lower case, without a trailing slash. */
export const wizardPathKey = (pathname: string): string => pathname.toLowerCase().replace(/(.)\/+$/, '$1');
