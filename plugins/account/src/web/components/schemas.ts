import { evaluatePasswordPolicy, isEmail, type PasswordRule, requiredText, validationMessages, withFieldsMatch } from '@portal/core';
import { z } from 'zod';

/**
 * Form schemas of the account pages. Messages are i18n keys: the kit translates them in its namespace,
 * so this plugin's own keys carry the 'account:' prefix.
 */
const msg = {
  required: 'account:validation.required',
  questionRequired: 'account:validation.questionRequired',
  answerRequired: 'account:validation.answerRequired',
  questionsDiffer: 'account:validation.questionsDiffer',
  passwordsDiffer: 'account:validation.passwordsDiffer',
} as const;

/** A new password: present, and valid against every server policy rule (spec 01 section 5). */
export const newPasswordSchema = (rules: readonly PasswordRule[]) =>
  z
    .string()
    .min(1, msg.required)
    .refine((v) => evaluatePasswordPolicy(v, rules).valid, validationMessages.passwordPolicy);

/**
 * Registration: every field may be empty (the dialog then does not submit, silently); what is typed is
 * checked: the user name is an e-mail address and the password meets the policy.
 */
export const registerSchema = (rules: readonly PasswordRule[]) =>
  z.object({
    UserName: z
      .string()
      .trim()
      .refine((v) => v === '' || isEmail(v), validationMessages.email),
    Password: z.union([z.literal(''), newPasswordSchema(rules)]),
    FirstName: z.string().max(100),
    LastName: z.string().max(100),
  });

export const forgotSchema = z.object({ UserName: requiredText });

const passwordPair = (rules: readonly PasswordRule[]) => ({ Password: newPasswordSchema(rules), ConfirmPassword: z.string().min(1, msg.required) });

const question = z
  .union([z.number(), z.string(), z.null()])
  .refine((v) => v !== null && v !== '', msg.questionRequired)
  .transform((v) => Number(v));
const answer = z.string().trim().min(1, msg.answerRequired).max(200);
const questionFields = { Question1: question, Answer1: answer, Question2: question, Answer2: answer };

const differentQuestions = <T extends z.ZodObject>(schema: T): T =>
  schema.refine((v) => (v as { Question1: unknown }).Question1 !== (v as { Question2: unknown }).Question2, {
    message: msg.questionsDiffer,
    path: ['Question2'],
  }) as unknown as T;

export const resetSchema = (rules: readonly PasswordRule[]) =>
  withFieldsMatch(z.object(passwordPair(rules)), 'Password', 'ConfirmPassword', msg.passwordsDiffer);

export const activateSchema = (rules: readonly PasswordRule[]) =>
  differentQuestions(withFieldsMatch(z.object({ ...passwordPair(rules), ...questionFields }), 'Password', 'ConfirmPassword', msg.passwordsDiffer));

export const changePasswordSchema = (rules: readonly PasswordRule[]) =>
  withFieldsMatch(z.object({ OldPassword: z.string().min(1, msg.required), ...passwordPair(rules) }), 'Password', 'ConfirmPassword', msg.passwordsDiffer);

export const questionsSchema = differentQuestions(z.object(questionFields));

export const emptyQuestions = { Question1: null, Answer1: '', Question2: null, Answer2: '' };

export const changeEmailSchema = z.object({
  email: z.string().trim().min(1, msg.required).refine(isEmail, validationMessages.email),
  Password: z.string().min(1, msg.required),
});
