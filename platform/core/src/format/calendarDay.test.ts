import { describe, expect, it } from 'vitest';
import { formatIsoDayText } from './calendarDay';

describe('formatIsoDayText', () => {
  it("shows a server's day in the language's medium style by default, or in the style asked for", () => {
    expect(formatIsoDayText('2026-11-29', 'medium', 'en-US')).toBe('Nov 29, 2026');
    expect(formatIsoDayText('2026-11-29', 'medium', 'es-US')).toMatch(/^29 nov 2026$/);
    expect(formatIsoDayText('2026-01-05', 'numeric', 'en-US')).toBe('01/05/2026');
    // A timestamp's day part is the day: no time zone moves it.
    expect(formatIsoDayText('2026-03-01T23:30:00Z', 'medium', 'en-US')).toBe('Mar 1, 2026');
  });

  it('shows nothing for no day, and a value that is not a day as it came', () => {
    expect(formatIsoDayText(null)).toBe('');
    expect(formatIsoDayText('')).toBe('');
    expect(formatIsoDayText('2026-02-30', 'medium', 'en-US')).toBe('2026-02-30');
    expect(formatIsoDayText('soon', 'medium', 'en-US')).toBe('soon');
  });
});
