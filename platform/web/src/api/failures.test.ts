import { describe, expect, it } from 'vitest';
import { loadFailure, saveConflict } from './failures';

/** Shaped as the API client's ApiCallError: an Error with the answer's status (0: no answer). */
const failed = (status: number, message = 'Request failed') => Object.assign(new Error(message), { status });

describe('a failed load of a record', () => {
  it('is not found only on a 404, else a load error offering a retry', () => {
    expect(loadFailure(failed(404))).toBe('notFound');
    for (const status of [500, 503, 0, 400, 403]) expect(loadFailure(failed(status)), String(status)).toBe('loadError');
    expect(loadFailure(new Error('network'))).toBe('loadError');
  });
});

describe('a failed save of a record', () => {
  it("is a conflict on a 409, carrying the server's message; any other failure is not", () => {
    expect(saveConflict(failed(409, 'This contact was changed by someone else. Reload it and make your change again.'))).toBe(
      'This contact was changed by someone else. Reload it and make your change again.',
    );
    for (const status of [400, 404, 500, 0]) expect(saveConflict(failed(status)), String(status)).toBeNull();
    expect(saveConflict({ status: 409 })).toBeNull();
  });
});
