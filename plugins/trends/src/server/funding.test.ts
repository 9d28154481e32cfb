import { describe, expect, it } from 'vitest';
import { nextFundingDate } from './funding';

describe('nextFundingDate', () => {
  it("is this month's first business day on or before it", () => {
    expect(nextFundingDate(new Date('2026-06-01T10:00:00Z'))).toBe('2026-06-01');
    // 2026-11-01 is a Sunday: the funding day is Monday the 2nd.
    expect(nextFundingDate(new Date('2026-11-01T00:00:00Z'))).toBe('2026-11-02');
    expect(nextFundingDate(new Date('2026-11-02T23:59:00Z'))).toBe('2026-11-02');
  });
  it("is next month's after it, across the year end", () => {
    expect(nextFundingDate(new Date('2026-11-03T00:00:00Z'))).toBe('2026-12-01');
    // 2027-01-01 is a Friday.
    expect(nextFundingDate(new Date('2026-12-15T00:00:00Z'))).toBe('2027-01-01');
    // 2027-05-01 is a Saturday: Monday 3 May.
    expect(nextFundingDate(new Date('2027-04-20T00:00:00Z'))).toBe('2027-05-03');
  });
});
