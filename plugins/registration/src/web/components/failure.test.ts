import { describe, expect, it, vi } from 'vitest';

// The web kernel's entry cannot load in a unit test (it creates vanilla-extract styles); this module uses only its
// call error from it, so that comes from its own module, the real class.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/errors'));

import { ApiCallError } from '@portal/web';
import { failureText, saveFailureOf } from './failure';

describe('registration failures shown on the page', () => {
  it('gives the text of a failed Get started (raising the step sends no toast), and nothing when all went well', () => {
    expect(failureText(new ApiCallError('The service is busy right now. Please try again in a moment.', 503))).toBe(
      'The service is busy right now. Please try again in a moment.',
    );
    expect(failureText(null)).toBeNull();
    expect(failureText(undefined)).toBeNull();
  });

  it('marks a 409 save as stale (the typed values stay, a Reload is offered) and any other failure as an error', () => {
    const stale = 'Someone else changed this profile; reload to see their change.';
    expect(saveFailureOf(new ApiCallError(stale, 409))).toEqual({ stale: true, message: stale });
    expect(saveFailureOf(new ApiCallError('Please enter a valid e-mail address.', 400))).toEqual({
      stale: false,
      message: 'Please enter a valid e-mail address.',
    });
    expect(saveFailureOf(new Error('offline'))).toEqual({ stale: false, message: 'offline' });
  });
});
