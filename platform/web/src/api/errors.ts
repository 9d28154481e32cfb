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
