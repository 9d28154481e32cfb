import { type BrandManifest, serviceRef } from '@portal/core';

/** The site an e-mailed link points at: the brand, and the request's Host and protocol when it came on that brand's own host. */
export interface ActivationSite {
  brand: BrandManifest;
  /** The Host header of the request; used only when it is the brand's own <marker>.localhost host (a forged Host never goes into a link). */
  host?: string;
  protocol?: string;
}

/** Who asked for the mail, for the audit row of the link. */
export interface ActivationActor {
  userId: string;
  name: string;
}

/** Problems sendActivation refuses with (an ApiError carrying the status and this text). */
export const ActivationRefusals = {
  unknownUser: 'The user does not exist.',
  alreadyActive: 'This account is already active; the user can sign in, or use Forgot Password.',
  noEmail: 'This user has no e-mail address to send the activation link to.',
  deactivated: 'This account was deactivated after its activation; it cannot be activated again by e-mail.',
} as const;

/** The account plugin's service: activation e-mails through its single-use links, for plugins that create accounts. */
export interface AccountService {
  /**
   * Issues a fresh single-use activation link (24 hours) for an account that is not active yet, and queues the
   * activation e-mail to its e-mail address (or its user name when that is an address). Earlier open
   * activation links of the user stay valid until one is used, which spends them all. Refuses (ApiError)
   * an unknown user (404), an active or deactivated account (409) and one without an e-mail address (400).
   * Resolves with the address the mail went to.
   */
  sendActivation(userId: string, site: ActivationSite, actor?: ActivationActor): Promise<{ sentTo: string }>;
}

export const accountService = serviceRef<AccountService>('account');
