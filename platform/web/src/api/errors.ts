/** A failed call: an HTTP error, a HasError envelope, or a refused session. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly body: unknown = null,
  ) {
    super(message);
  }
}

export class SessionEndedError extends ApiCallError {
  constructor(message = 'Your session has ended.') {
    super(message, 401);
  }
}

/**
 * Whether a failed query is asked again (once): not when the server refused it (4xx): asking again gets the same
 * answer, and a limited call (429) would be counted again. A network failure or a server error (5xx) may pass.
 */
export const retryQuery = (failures: number, error: unknown): boolean =>
  failures < 1 && !(error instanceof ApiCallError && error.status >= 400 && error.status < 500);
