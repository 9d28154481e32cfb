import { type BrandManifest, type Message, msg, serviceRef } from '@portal/core';
import type { SqlClient } from '@portal/server';

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
  closed: 'This account has been closed; reopen it (reactivate the member) before sending an activation link.',
} as const;

/**
 * The rule for completing registration (step 10), which needs knowledge the account plugin does not have (the
 * subscription and the cards are billing's). The registration plugin hands it in at start-up (useRegistrationRules).
 */
export interface RegistrationRules {
  /** Answers null when the user may complete registration on this brand's site, or the message of the refusal (409). */
  canComplete(input: { userId: string; memberId: number | null; brand: BrandManifest | null }): Promise<Message | null>;
}

/** Why a step change is refused: steps outside the list (400), a lower step (409), completion too early (409, the rules' text). */
export const StepRefusals = {
  notAStep: 'The registration step must be 0, 1, 2, 3, 4 or 10.',
  lower: (current: number) => msg('The registration step cannot go back: it is {{current}}.', { current }),
  noAccount: 'The account no longer exists.',
} as const;

/** The account plugin's service: activation e-mails through its single-use links, for plugins that create accounts. */
export interface AccountService {
  /**
   * Sets the user's registration step (spec 01 section 4): refuses (ApiError) a step outside 0, 1, 2, 3, 4, 10 (400),
   * a step lower than the stored one (409), and 10 when the registration rules refuse it (409). The same step
   * again is accepted and changes nothing. Resolves with the stored step.
   */
  setRegistrationStep(userId: string, step: number, brand: BrandManifest | null): Promise<number>;
  /** The registration plugin's rule for completing registration; without one, completion needs nothing more. */
  useRegistrationRules(rules: RegistrationRules): void;
  /**
   * Issues a fresh single-use activation link (24 hours) for an account that is not active yet, and queues the
   * activation e-mail to its e-mail address (or its user name when that is an address). Earlier open
   * activation links of the user stay valid until one is used, which spends them all. Refuses (ApiError)
   * an unknown user (404), an active or deactivated account (409) and one without an e-mail address (400).
   * Resolves with the address the mail went to.
   */
  sendActivation(userId: string, site: ActivationSite, actor?: ActivationActor): Promise<{ sentTo: string }>;
  /**
   * After another person (an administrator) changed a login's sign-in name: queues a notice ("your sign-in name is now
   * …") to the old address (the old e-mail, else the old name when it is an address) and to the new name (when it is
   * an address; once when both are the same address), signed by the user's brand and in the user's language, and
   * audits it (account.signin-name.notice). Refuses (ApiError 404) an unknown user. Resolves with the addresses the
   * notice went to.
   */
  sendSignInNameNotice(
    userId: string,
    change: { oldName: string; oldEmail: string | null; newName: string },
    site: ActivationSite,
    actor?: ActivationActor,
  ): Promise<{ sentTo: string[] }>;
  /**
   * Ends (spends) every live activation and reset link of the user, inside the caller's transaction: after another
   * person changed the login's address, a link mailed to the old address must not activate or reset the login.
   * Resolves with how many links it ended.
   */
  endAccessLinks(userId: string, tx: SqlClient): Promise<number>;
}

export const accountService = serviceRef<AccountService>('account');
