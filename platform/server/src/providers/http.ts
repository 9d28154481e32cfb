/** How a provider's refusal (4xx) and its being unreachable or failing (network, 5xx) are reported. */
export interface ProviderErrors {
  /** The provider's name in messages: 'card gateway', 'bank aggregator'. */
  name: string;
  refused: (status: number, message: string) => Error;
  unavailable: (message: string) => Error;
}

/** A provider's answer read as JSON: null for an empty one, undefined for one that is not JSON. */
export function parseAnswer(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One JSON call to a provider's HTTP API with Basic credentials and a 15 s timeout. A 4xx is the provider refusing
 * (its `error` text, or 'The <name> answered <status>.'); a network failure, a 5xx, or an answer that cannot be read
 * (a body that stalls or breaks off, a 2xx that is not JSON or fails `valid`) means it is unavailable: the caller
 * cannot tell whether the provider acted, so it answers "try again later" and a retry goes with the same idempotency
 * key, never "refused".
 */
export async function providerCall<T>(
  errors: ProviderErrors,
  url: string,
  auth: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
  /** The shape a 2xx answer must have (the fields the caller relies on); without it any JSON, or no body, is taken. */
  valid?: (data: unknown) => boolean,
): Promise<T> {
  const where = `${errors.name} ${method} ${new URL(url).pathname}`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    // Inside the same try and timeout: a body that stalls or breaks off is the provider failing, not our bug.
    text = await res.text();
  } catch (e) {
    throw errors.unavailable(`${where}: ${(e as Error).message}`);
  }
  const data = parseAnswer(text);
  if (!res.ok) {
    // english-only: the provider's own words (its `error`), else a plain fallback; a plugin words what users see
    const message = (data as { error?: string } | null)?.error ?? `The ${errors.name} answered ${res.status}.`;
    if (res.status >= 400 && res.status < 500) throw errors.refused(res.status, message);
    throw errors.unavailable(`${where}: ${res.status} ${message}`);
  }
  if (data === undefined || (valid && !valid(data))) throw errors.unavailable(`${where}: an unreadable answer (${res.status}, ${text.length} bytes)`);
  return data as T;
}

/** Shape checks for `valid`: a plain object whose named fields are numbers / strings. */
export const isRecord = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data);
export const hasNumbers = (data: unknown, ...fields: string[]): boolean => isRecord(data) && fields.every((f) => typeof data[f] === 'number');
export const hasStrings = (data: unknown, ...fields: string[]): boolean => isRecord(data) && fields.every((f) => typeof data[f] === 'string');
