import type * as z from 'zod/mini';
import { declareEndpoint } from './endpoint';
import type * as S from './kernel-schemas';

/**
 * RFC 8693's token-exchange grant type and access-token type: a token handed over in an address (/activated/, /t/).
 * Here, not beside the schemas: the browser's entry imports them, and kernel-schemas.ts would bring zod with them.
 */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * The kernel's own endpoints (spec 01 section 7: token, configuration, identity, termination, sign-out;
 * lookups; health). The entry chunk imports these, so they carry their schemas' types only; the schemas
 * themselves (zod/mini) are in kernel-schemas.ts, which the server attaches (KernelRoutes).
 */
export const KernelApi = {
  token: declareEndpoint<{ body: typeof S.tokenGrantSchema; response: typeof S.tokenResponseSchema }>()({
    method: 'POST',
    path: '/token',
    bodyEncoding: 'form',
    answer: 'raw',
  }),
  health: declareEndpoint<{ response: typeof S.healthSchema }>()({ method: 'GET', path: '/health' }),
  config: declareEndpoint<{ response: typeof S.siteConfigSchema }>()({ method: 'GET', path: '/config' }),
  lookups: declareEndpoint<{ response: typeof S.lookupsSchema }>()({ method: 'GET', path: '/api/lookup/get' }),
  identity: declareEndpoint<{ response: typeof S.identitySchema }>()({ method: 'GET', path: '/api/account/user/identity' }),
  termination: declareEndpoint<{ response: typeof S.terminationSchema }>()({ method: 'GET', path: '/api/account/user/termination' }),
  signout: declareEndpoint<{ response: typeof S.nullSchema }>()({ method: 'POST', path: '/api/account/user/signout' }),
  /**
   * Not in the spec: a token to hand over in an address (/t/<token>, /activated/<token>), asked for by a signed-in
   * application (with its session's anti-forgery token) for the same user on the same site. Only such a token may be
   * exchanged for a session (the token-exchange grant); a session's own access token, taken alone, cannot.
   */
  handover: declareEndpoint<{ response: typeof S.handoverSchema }>()({ method: 'POST', path: '/api/account/user/handover' }),
  /**
   * Not in the spec: the language a signed-in user picks in the application (the language menu). The account keeps it,
   * as a sign-in keeps the language it was made in, so what is written to the user outside the application (e-mails,
   * text messages) follows the choice from then on.
   */
  language: declareEndpoint<{ body: typeof S.languageChoiceSchema; response: typeof S.nullSchema }>()({
    method: 'POST',
    path: '/api/account/user/language',
  }),
  /**
   * Not in the spec: the member a member number names, for staff who may act for members (SuperUser, CareSupport): the
   * toolbar's "act for" box takes the number the member lists show as well as the member ID.
   */
  memberByNumber: declareEndpoint<{ params: typeof S.memberNumberParamsSchema; response: typeof S.memberByNumberSchema }>()({
    method: 'GET',
    path: '/api/account/members/byNumber/:number',
  }),
} as const;

export type Identity = z.infer<typeof S.identitySchema>;
export type TokenResponse = z.infer<typeof S.tokenResponseSchema>;
export type TokenError = { error: string; error_description: string };
export type SiteConfig = z.infer<typeof S.siteConfigSchema>;
export type Termination = z.infer<typeof S.terminationSchema>;
export type Handover = z.infer<typeof S.handoverSchema>;
