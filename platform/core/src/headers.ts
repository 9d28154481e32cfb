/** Header names shared by the API client and the server. */
export const Headers = {
  antiForgery: 'x-form-token',
  sessionId: 'x-session-id',
  requestId: 'x-request-id',
  impersonate: 'x-member-id',
  filename: 'x-filename',
  /**
   * A position in the primary database's log. A change's answer carries the position after it; the client sends back
   * the latest it holds, so a search served by a read replica sees the caller's own changes (docs/SCALING.md).
   */
  readAfter: 'x-read-after',
  /** The reader's IANA time zone (the browser's): the days a filter over moments names are the reader's days. */
  timeZone: 'x-time-zone',
} as const;
