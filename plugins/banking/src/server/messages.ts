import { msg } from '@portal/core';

/**
 * What bank linking says to users (spec 01 section 6), in English; the Spanish is in i18n/es.json. Server-side only:
 * the web says its own words through its namespace, so none of this is in a site's bundle.
 */
export const BANK_MESSAGES = {
  mfaEmpty: 'MFA form is empty',
  fundingSet: 'Your funding account has been successfully set',
  removed: 'Your account has been removed.',
  refreshed: 'Your linked account has been refreshed. Please see your updated account shortly.',
  credentialsUpdated: 'Account credentials updated successfuly.',
  serverError: 'Error while getting data from server',
  noMember: 'This needs a member account: choose a member to act on behalf of.',
  linkNotFound: 'The linked bank was not found.',
  accountNotFound: 'The account was not found.',
  unavailable: 'The bank linking service is not available right now. Please try again later.',
  alreadyLinked: (name: string) => msg('{{name}} is already linked to your account.', { name }),
  terminated: 'Your linked banks have been removed.',
  /** Not in the spec: add, change and MFA while the membership is terminated (refused before the aggregator is asked). */
  membershipTerminated: 'Your membership is terminated, so no bank can be linked. A bank can be linked again once the membership is reactivated.',
  /** Not in the spec: an MFA answer the aggregator had already taken (its reply lost) turned out to have linked the bank. */
  linked: 'Your bank has been linked.',
} as const;
