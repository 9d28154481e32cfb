import { defineEndpoint, idSchema, isEmail, msg } from '@portal/core';
import { z } from 'zod';

/** The pages the e-mailed links open (spec 01 section 2). */
export const AccountLinks = {
  activate: (urlId: string) => `/login/activate/${encodeURIComponent(urlId)}`,
  confirmEmail: (urlId: string) => `/login/confirm-email/${encodeURIComponent(urlId)}`,
  reset: (urlId: string) => `/login/reset/${encodeURIComponent(urlId)}`,
} as const;

/** Texts of spec 01 section 8, word for word (their spelling included); the server's Spanish is in server/i18n/es.json. */
export const AccountMessages = {
  activationInvalid: 'Unable to activate account, please try again.',
  activationError: 'An error occured trying to activate the account. Please try again.',
  activationSuccess: 'Your account has been sucessfully activated. You will be transferred to the Login page in 5 seconds.',
  resetInvalid: 'Unable to reset password, please try again.',
  resetError: 'An error occured resetting the password. Please try again.',
  resetSuccess: 'Your password has been sucessfully changed. You will be transferred to the Login page in 5 seconds.',
  resetEmailSent: (email: string) =>
    msg(
      'An email with instructions has been sent. If you do not get the email in the next 5-10 mins, please click Send Email to receive another email, or contact us at {{email}}.',
      { email },
    ),
  resetEmailError: 'An error occured sending email. Please ensure the email address is correct and try again.',
  registrationCheckEmail: 'Please check your email for the registration link.',
  passwordChangeFailed: 'Unable to change password!',
  passwordChanged: 'Successfully changed password!',
} as const;

/** Spec 01 section 4: 0 or 1 start, 2 profile, 3 contact, 4 subscription, 10 complete. */
export const REGISTRATION_COMPLETE_STEP = 10;
/** The only steps the server stores. */
export const REGISTRATION_STEPS: readonly number[] = [0, 1, 2, 3, 4, REGISTRATION_COMPLETE_STEP];

const text = (max: number) => z.string().trim().min(1).max(max);
const password = z.string().min(1, 'is required').max(1024);
const urlId = z.string().min(1).max(200);

// --- registration -------------------------------------------------------------------------------

/**
 * POST user/register, form-encoded. UserName is the member's e-mail address (the activation link is
 * sent there). MemberNumber and Role are accepted and ignored: the number is generated, the role comes
 * from the site.
 */
export const registerRequest = z.object({
  // The kernel's address rule (isEmail), the one the browser's forms check, so an address the form takes is not refused here.
  UserName: z.string().trim().max(254).refine(isEmail, 'UserName must be an e-mail address'),
  Password: password,
  FirstName: text(100),
  LastName: text(100),
  MemberNumber: z.string().max(64).optional(),
  Role: z.string().max(64).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const registerResponse = z.object({
  UserName: z.string(),
  /** True on sites that sign in at once (assist); otherwise the e-mailed link activates the account. */
  IsActive: z.boolean(),
  /** The generated member number; null for accounts without a member role. */
  MemberNumber: z.string().nullable(),
});
export type RegisterResponse = z.infer<typeof registerResponse>;

/** GET user/register/status answers the step number; POST takes it as the status query value. */
export const registrationStep = z.number().int().min(0).max(REGISTRATION_COMPLETE_STEP);
export const registerStatusQuery = z.object({
  status: z.coerce
    .number()
    .int()
    .refine((n) => REGISTRATION_STEPS.includes(n), 'must be 0, 1, 2, 3, 4 or 10'),
});
export const registeredQuery = z.object({ status: z.stringbool() });
export const registeredResponse = z.object({ Registered: z.boolean(), Step: registrationStep });

// --- reset and activation links -----------------------------------------------------------------

export const resetSendEmailRequest = z.object({ UserName: z.string().trim().min(1).max(254) });
export const resetSendEmailResponse = z.object({ Sent: z.literal(true) });

export const urlIdParams = z.object({ urlId });

export const securityQuestion = z.object({ Id: z.number().int(), Text: z.string() });
export type SecurityQuestion = z.infer<typeof securityQuestion>;
export const securityQuestionsResponse = z.array(securityQuestion);

/** Activation and reset info read (GET activate/{urlId}, GET reset/validate/{urlId}). */
export const linkInfoResponse = z.object({
  IsValid: z.boolean(),
  /** Activation: the questions to choose two from. Reset: empty (the reset payload carries no answers). */
  Questions: z.array(securityQuestion),
  UrlId: z.string(),
});
export type LinkInfo = z.infer<typeof linkInfoResponse>;

export const securityAnswer = z.object({ Id: idSchema, AnswerText: z.string().trim().min(1, 'an answer is required').max(200) });
const twoAnswers = z
  .array(securityAnswer)
  .length(2, 'exactly two security questions must be answered')
  .refine((a) => a[0]?.Id !== a[1]?.Id, 'the two security questions must be different');

export const activateRequest = z.object({
  UrlID: urlId,
  Password: password,
  ConfirmPassword: password,
  Questions: twoAnswers,
});
export type ActivateRequest = z.infer<typeof activateRequest>;

export const resetPasswordRequest = z.object({
  UrlId: urlId,
  Password: password,
  ConfirmPassword: password,
  /** Always empty in the spec; accepted and ignored. */
  MemberNumber: z.string().max(64).nullish(),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

export const isValidResponse = z.object({ IsValid: z.boolean() });

// --- signed-in account changes ------------------------------------------------------------------

export const updateQuestionsRequest = twoAnswers;
export const updatePasswordRequest = z.object({ Password: password, OldPassword: password, ConfirmPassword: password });
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequest>;

export const passwordRule = z.object({ Message: z.string(), Validator: z.string() });
export type PasswordRule = z.infer<typeof passwordRule>;
export const passwordPolicyResponse = z.array(passwordRule);

/**
 * An e-mail change needs the current password and takes effect only when the link mailed to the new address
 * is opened (security issue 11, item 5): a stolen session alone cannot redirect the password-reset mail.
 */
export const updateEmailRequest = z.object({
  email: z.string().trim().max(254).refine(isEmail, 'email must be an e-mail address'),
  Password: password,
});
/** The address stays as it is until the change is confirmed; Pending names the address waiting for it. */
export const updateEmailResponse = z.object({ Email: z.string().nullable(), Pending: z.string() });
export const confirmEmailRequest = z.object({ UrlId: urlId });
export const confirmEmailResponse = z.object({ IsValid: z.boolean(), Email: z.string().nullable() });

// --- the endpoints (spec 01 section 7, base /api/account/; and members/updateEmail) ------------------

export const AccountApi = {
  register: defineEndpoint({ method: 'POST', path: '/api/account/user/register', body: registerRequest, response: registerResponse, bodyEncoding: 'form' }),
  registerStatus: defineEndpoint({ method: 'GET', path: '/api/account/user/register/status', response: registrationStep }),
  raiseRegisterStatus: defineEndpoint({ method: 'POST', path: '/api/account/user/register/status', query: registerStatusQuery, response: registrationStep }),
  registered: defineEndpoint({ method: 'POST', path: '/api/account/registered', query: registeredQuery, response: registeredResponse }),
  resetSendEmail: defineEndpoint({ method: 'POST', path: '/api/account/reset/sendemail', body: resetSendEmailRequest, response: resetSendEmailResponse }),
  resetValidate: defineEndpoint({ method: 'GET', path: '/api/account/reset/validate/:urlId', params: urlIdParams, response: linkInfoResponse }),
  resetPassword: defineEndpoint({ method: 'POST', path: '/api/account/reset/password', body: resetPasswordRequest, response: isValidResponse }),
  passwordPolicy: defineEndpoint({ method: 'GET', path: '/api/account/reset/passwordpolicy', response: passwordPolicyResponse }),
  securityQuestions: defineEndpoint({ method: 'GET', path: '/api/account/securityquestions', response: securityQuestionsResponse }),
  updateQuestions: defineEndpoint({ method: 'POST', path: '/api/account/update/questions', body: updateQuestionsRequest, response: z.null() }),
  updatePassword: defineEndpoint({ method: 'POST', path: '/api/account/update/password', body: updatePasswordRequest, response: isValidResponse }),
  activateValidate: defineEndpoint({ method: 'GET', path: '/api/account/activate/:urlId', params: urlIdParams, response: linkInfoResponse }),
  activate: defineEndpoint({ method: 'POST', path: '/api/account/activate', body: activateRequest, response: isValidResponse }),
  updateEmail: defineEndpoint({ method: 'POST', path: '/api/members/updateEmail', body: updateEmailRequest, response: updateEmailResponse }),
  confirmEmail: defineEndpoint({ method: 'POST', path: '/api/account/email/confirm', body: confirmEmailRequest, response: confirmEmailResponse }),
} as const;
