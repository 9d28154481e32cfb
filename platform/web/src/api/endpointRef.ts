import type { Endpoint } from '@portal/core';

/** What the web client reads of an endpoint: its method and path, and how its body and its answer travel. */
export type EndpointWire<E extends Endpoint> = {
  [K in 'method' | 'path' | 'bodyEncoding' | 'answer' as K extends keyof E ? K : never]: E[K];
};

/**
 * An endpoint of a contract named by its type only, for `api.call`: `endpointRef<typeof NotesApi.recent>({ method:
 * 'GET', path: '/api/dashboard/notes' })` beside `import type { NotesApi } from '../../contract'`. The compiler checks
 * the method and path (and the body and answer encodings) against the contract's, and the call is typed from it as
 * usual; the module loads none of the contract's zod schemas, which the web client never reads. For modules on the
 * landing page's path (the dashboard widgets), where building the schemas cost 150–250 ms of a slowed CPU before the
 * first paint.
 */
export function endpointRef<E extends Endpoint>(wire: EndpointWire<E>): E {
  return { ...wire, kind: 'endpoint' } as unknown as E;
}
