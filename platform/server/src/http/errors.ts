import type { Message } from '@portal/core';

/**
 * An error with an HTTP status whose message is safe to show the user (MsgText). The message goes out in the
 * request's language (`text`); `message` is its English text, for logs.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly text: Message,
    public readonly data: unknown = null,
  ) {
    super(String(text));
  }
}

export const badRequest = (msg: Message, data: unknown = null) => new ApiError(400, msg, data);
export const notFound = (msg: Message = 'Not found.') => new ApiError(404, msg);
export const forbidden = (msg: Message = 'You do not have permission to do this.') => new ApiError(403, msg);
export const conflict = (msg: Message) => new ApiError(409, msg);
