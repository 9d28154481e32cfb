import { describe, expect, it } from 'vitest';
import { shouldShowError, visibleError } from './errorVisibility';

describe('error visibility', () => {
  it('hides until dirty or submitted', () => {
    expect(shouldShowError({ isDirty: false, submitCount: 0 })).toBe(false);
    expect(shouldShowError({ isDirty: true, submitCount: 0 })).toBe(true);
    expect(shouldShowError({ isDirty: false, submitCount: 1 })).toBe(true);
  });

  it('translates the visible message', () => {
    const t = (key: string) => (key === 'validation.phone' ? 'Enter a 10-digit phone number.' : key);
    expect(visibleError('validation.phone', { isDirty: false, submitCount: 0 }, t)).toBeUndefined();
    expect(visibleError('validation.phone', { isDirty: true, submitCount: 0 }, t)).toBe('Enter a 10-digit phone number.');
    expect(visibleError('Plain text', { isDirty: false, submitCount: 2 }, t)).toBe('Plain text');
    expect(visibleError(undefined, { isDirty: true, submitCount: 2 }, t)).toBeUndefined();
  });
});
