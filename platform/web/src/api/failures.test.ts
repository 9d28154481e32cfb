import { describe, expect, it } from 'vitest';
import { failureWords, loadFailure, saveConflict } from './failures';

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

describe('the words of a failed call shown in place', () => {
  it("are the API's words (the server's Message, or the client's for no answer), else the page's own", () => {
    expect(failureWords(failed(503, 'The bank linking service is not available right now.'), 'fallback')).toBe(
      'The bank linking service is not available right now.',
    );
    expect(failureWords(failed(0, 'Error while getting data from server'), 'fallback')).toBe('Error while getting data from server');
    expect(failureWords(failed(500, ''), 'fallback')).toBe('fallback');
    expect(failureWords(new Error('a bug in the page'), 'fallback')).toBe('fallback');
    expect(failureWords(undefined, 'fallback')).toBe('fallback');
  });
});
