/** An error with an HTTP status whose message is safe to show the user (MsgText). */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, data: unknown = null) => new ApiError(400, msg, data);
export const notFound = (msg = 'Not found.') => new ApiError(404, msg);
export const forbidden = (msg = 'You do not have permission to do this.') => new ApiError(403, msg);
export const conflict = (msg: string) => new ApiError(409, msg);
