import { defineEndpoint } from '@portal/core';
import { z } from 'zod';

export const helpTopicSchema = z.object({
  /** Topic id; its title and text are the i18n keys help:topics.<Id>.title and .body. */
  Id: z.string(),
  Sort: z.number().int(),
});
export type HelpTopic = z.infer<typeof helpTopicSchema>;

export const helpTopicsResponse = z.object({
  Topics: z.array(helpTopicSchema),
  SupportPhone: z.string().nullable(),
  SupportEmail: z.string().nullable(),
});
export type HelpTopicsResponse = z.infer<typeof helpTopicsResponse>;

export const HelpApi = {
  /** The help topics the signed-in user's roles see, with the site's support contacts. */
  topics: defineEndpoint({ method: 'GET', path: '/api/help/topics', response: helpTopicsResponse }),
} as const;
