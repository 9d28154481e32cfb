/** How a provider's refusal (4xx) and its being unreachable or failing (network, 5xx) are reported. */
export interface ProviderErrors {
  /** The provider's name in messages: 'card gateway', 'bank aggregator'. */
  name: string;
  refused: (status: number, message: string) => Error;
  unavailable: (message: string) => Error;
}

/**
 * One JSON call to a provider's HTTP API with Basic credentials and a 15 s timeout. A 4xx is the provider refusing
 * (its `error` text, or 'The <name> answered <status>.'); a network failure or a 5xx means it is unavailable.
 */
export async function providerCall<T>(
  errors: ProviderErrors,
  url: string,
  auth: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const where = `${errors.name} ${method} ${new URL(url).pathname}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    throw errors.unavailable(`${where}: ${(e as Error).message}`);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // english-only: the provider's own words (its `error`), else a plain fallback; a plugin words what users see
    const message = (data as { error?: string } | null)?.error ?? `The ${errors.name} answered ${res.status}.`;
    if (res.status >= 400 && res.status < 500) throw errors.refused(res.status, message);
    throw errors.unavailable(`${where}: ${res.status} ${message}`);
  }
  return data as T;
}
