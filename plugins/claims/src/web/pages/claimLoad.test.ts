import { describe, expect, it } from 'vitest';
import { claimLoadFailure } from './claimLoad';

/** Shaped as the API client's ApiCallError: an Error with the answer's status (0: no answer). */
const failed = (status: number) => Object.assign(new Error('Request failed'), { status });

describe('a failed load of a bill', () => {
  it('is not found only on a 404', () => {
    expect(claimLoadFailure(failed(404))).toBe('notFound');
  });

  it('is a load error on a server error, no answer, a refusal or an error without a status', () => {
    for (const status of [500, 503, 0, 400, 401, 403]) expect(claimLoadFailure(failed(status)), String(status)).toBe('loadError');
    expect(claimLoadFailure(new Error('network'))).toBe('loadError');
    expect(claimLoadFailure(null)).toBe('loadError');
  });
});
