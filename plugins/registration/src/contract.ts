import { defineEndpoint } from '@portal/core';
import { z } from 'zod';

/** Spec 01 section 5: the registration question's options. */
export const REGISTRATION_QUESTION_OPTIONS = ['Marketing', 'Broker', 'Adjuster', 'Attorney'] as const;
export type RegistrationQuestionOption = (typeof REGISTRATION_QUESTION_OPTIONS)[number];

/**
 * The server's refusals of completing registration (issue 14), and the wizard's texts that must stay word for word
 * (the web shows its own copies from its i18n files; the server's Spanish is in server/i18n/es.json).
 */
export const RegistrationMessages = {
  noSubscription: 'Registration cannot be completed before a membership is started.',
  noDefaultCard: 'Registration cannot be completed before a default card is linked.',
  fixErrors: 'Please fix any errors before continuing.',
  cardFormToast: 'Error while getting card form',
  cardFormText: 'There was an error loading card form. Please try again.',
} as const;

export const registrationQuestionSchema = z.object({
  /** How the member heard of us; null when not answered yet. */
  Question: z.enum(REGISTRATION_QUESTION_OPTIONS).nullable(),
});

export const RegistrationApi = {
  /** The signed-in user's answer to the registration question. */
  question: defineEndpoint({ method: 'GET', path: '/api/registration/question', response: registrationQuestionSchema }),
  /** Saves (or replaces) the answer. */
  saveQuestion: defineEndpoint({
    method: 'POST',
    path: '/api/registration/question',
    body: z.object({ Question: z.enum(REGISTRATION_QUESTION_OPTIONS, { error: 'must be Marketing, Broker, Adjuster or Attorney' }) }),
    response: registrationQuestionSchema,
  }),
} as const;
