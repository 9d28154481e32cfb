import type * as zc from 'zod/v4/core';

/**
 * One endpoint contract, declared once in a plugin's (or the kernel's) contract and used by both sides:
 * the server mounts it with `route(endpoint, { access, handler })` (the handler is typed from it, its
 * input parsed by it and, outside production, its answer checked against `response`); the web calls it
 * with `api.call(endpoint, input)` and gets the typed Data back.
 *
 * Schemas are zod (classic or mini: both are `zod/v4/core` types). The kernel's own contract uses
 * zod/mini so the sign-in path stays small; plugin contracts load with their pages.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type Schema = zc.$ZodType;

export interface EndpointSpec {
  method: HttpMethod;
  /** Fastify-style path: '/api/claims/getById/:id'. */
  path: string;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** The Data of the answer's envelope ('json'), or nothing checkable ('file', 'raw'). */
  response?: Schema;
  /**
   * How the body travels: JSON (default), form-encoded (the /token and registration calls) or 'binary': raw bytes
   * (application/octet-stream; a chunk of an upload) that the server hands the handler as a stream, never parsed or
   * held whole (declare no `body` schema; the web sends a Blob as `binary`).
   */
  bodyEncoding?: 'json' | 'form' | 'binary';
  /**
   * The handler also gets the body's bytes as the caller sent them (`ctx.rawBody`), besides the parsed body: a
   * signature over the body (a provider's signed webhook) is checked over those, never over JSON written again.
   */
  rawBody?: boolean;
  /** 'json': the kernel envelope (default); 'file': a download with x-filename; 'raw': the handler's own answer (OAuth /token). */
  answer?: 'json' | 'file' | 'raw';
}

export type Endpoint<S extends EndpointSpec = EndpointSpec> = S & { readonly kind: 'endpoint' };

/** Declares an endpoint; `const` keeps the literal method and path in the type. */
export function defineEndpoint<const S extends EndpointSpec>(spec: S): Endpoint<S> {
  return { ...spec, kind: 'endpoint' } as Endpoint<S>;
}

type SchemaParts = Pick<EndpointSpec, 'params' | 'query' | 'body' | 'response'>;

/**
 * An endpoint declared with its schemas' TYPES only: nothing of zod reaches a bundle that imports it. The
 * kernel's own API uses this so the sign-in path stays within its budget; the server attaches the schemas
 * with `withSchemas`, whose types must match the declaration exactly. Plugins use defineEndpoint.
 */
export function declareEndpoint<S extends SchemaParts>() {
  return <const B extends Omit<EndpointSpec, keyof SchemaParts>>(base: B): Endpoint<B & S> => ({ ...base, kind: 'endpoint' }) as Endpoint<B & S>;
}

/** The declared endpoint with its schemas, for the server (parsing input, checking answers). */
export function withSchemas<E extends Endpoint>(endpoint: E, schemas: Pick<E, keyof SchemaParts & keyof E>): E {
  return { ...endpoint, ...schemas };
}

type In<T> = T extends Schema ? zc.input<T> : undefined;
type Out<T> = T extends Schema ? zc.output<T> : undefined;

/** What the server's handler sees, parsed by the contract. */
export interface EndpointParsed<E extends EndpointSpec> {
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: Out<E['body']>;
}

/** What a handler returns: the response schema's input (plain JSON data). */
export type EndpointResult<E extends EndpointSpec> = E['response'] extends Schema ? zc.input<E['response']> : unknown;

/** What the web receives. A file answer is a Download. */
export type EndpointData<E extends EndpointSpec> = E['answer'] extends 'file' ? Download : E['response'] extends Schema ? zc.output<E['response']> : unknown;

export interface Download {
  blob: Blob;
  fileName: string;
}

type Field<K extends string, T> = T extends undefined ? { [P in K]?: undefined } : { [P in K]: T };
/** What the web passes to `api.call`: each part that the endpoint declares, and only those. */
export type EndpointInput<E extends EndpointSpec> = Field<'params', In<E['params']>> &
  Field<'query', In<E['query']>> &
  Field<'body', E['bodyEncoding'] extends 'binary' ? Blob : In<E['body']>>;

/** True when the endpoint needs no input at all, so `api.call(endpoint)` may omit it. */
export type NoInput<E extends EndpointSpec> = E['params'] extends Schema
  ? false
  : E['query'] extends Schema
    ? false
    : E['body'] extends Schema
      ? false
      : E['bodyEncoding'] extends 'binary'
        ? false
        : true;

/** Names of the :parameters in a path. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

/** Fills a path's :parameters, each encoded; a missing one is a programming error. */
export function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(v));
  });
}

/** A query string from plain values; null and undefined are left out, arrays repeat the key. */
export function buildQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) q.append(k, String(item));
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
