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

/** The failures a query has decided to ask again after (retryQuery): the retry's own outcome is what the user hears. */
const askedAgain = new WeakSet<object>();

/**
 * Whether a failed query is asked again (once): not when the server refused it (4xx): asking again gets the same
 * answer, and a limited call (429) would be counted again. A network failure or a server error (5xx) may pass. A
 * failure asked again is marked so (see isAskedAgain): its toast is held back (api/notices.ts).
 */
export const retryQuery = (failures: number, error: unknown): boolean => {
  const again = failures < 1 && !(error instanceof ApiCallError && error.status >= 400 && error.status < 500);
  if (again && typeof error === 'object' && error !== null) askedAgain.add(error);
  return again;
};

/** Whether a query decided to ask again after this failure (retryQuery). */
export const isAskedAgain = (error: unknown): boolean => typeof error === 'object' && error !== null && askedAgain.has(error);
