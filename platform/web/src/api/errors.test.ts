import { describe, expect, it } from 'vitest';
import { ApiCallError, retryQuery, SessionEndedError } from './errors';

describe('a failed query is asked again once, unless the server refused it', () => {
  it('asks again after a network failure or a server error, once', () => {
    expect(retryQuery(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryQuery(0, new ApiCallError('An unexpected error has occured.', 500))).toBe(true);
    expect(retryQuery(0, new ApiCallError('The service is busy right now.', 503))).toBe(true);
    expect(retryQuery(1, new ApiCallError('An unexpected error has occured.', 500))).toBe(false);
  });
  it('does not ask again after a refusal: a limit (429, it would count again), not found, forbidden, a bad request', () => {
    for (const status of [400, 403, 404, 409, 429]) expect(retryQuery(0, new ApiCallError('refused', status))).toBe(false);
    expect(retryQuery(0, new SessionEndedError())).toBe(false);
  });
});
