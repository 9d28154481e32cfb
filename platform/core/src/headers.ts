/** Header names shared by the API client and the server. */
export const Headers = {
  antiForgery: 'x-form-token',
  sessionId: 'x-session-id',
  requestId: 'x-request-id',
  impersonate: 'x-member-id',
  filename: 'x-filename',
} as const;
