import type * as z from 'zod/mini';
import { declareEndpoint } from './endpoint';
import type * as S from './kernel-schemas';

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
} as const;

export type Identity = z.infer<typeof S.identitySchema>;
export type TokenResponse = z.infer<typeof S.tokenResponseSchema>;
export type TokenError = { error: string; error_description: string };
export type SiteConfig = z.infer<typeof S.siteConfigSchema>;
export type Termination = z.infer<typeof S.terminationSchema>;
