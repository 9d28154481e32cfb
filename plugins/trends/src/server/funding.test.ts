import { describe, expect, it } from 'vitest';
import { nextFundingDate } from './funding';

const UTC = 'UTC';

describe('nextFundingDate', () => {
  it("is this month's first business day on or before it", () => {
    expect(nextFundingDate(UTC, new Date('2026-06-01T10:00:00Z'))).toBe('2026-06-01');
    // 2026-11-01 is a Sunday: the funding day is Monday the 2nd.
    expect(nextFundingDate(UTC, new Date('2026-11-01T00:00:00Z'))).toBe('2026-11-02');
    expect(nextFundingDate(UTC, new Date('2026-11-02T23:59:00Z'))).toBe('2026-11-02');
  });
  it("is next month's after it, across the year end", () => {
    expect(nextFundingDate(UTC, new Date('2026-11-03T00:00:00Z'))).toBe('2026-12-01');
    // 2027-01-01 is a Friday.
    expect(nextFundingDate(UTC, new Date('2026-12-15T00:00:00Z'))).toBe('2027-01-01');
    // 2027-05-01 is a Saturday: Monday 3 May.
    expect(nextFundingDate(UTC, new Date('2027-04-20T00:00:00Z'))).toBe('2027-05-03');
  });
  it("goes by the day in the business's zone, not the UTC day", () => {
    // 5 pm PST on Tuesday 2026-12-01 (the funding day) is already 12/02 in UTC: still today's funding date.
    const evening = new Date('2026-12-02T01:00:00Z');
    expect(nextFundingDate('America/Los_Angeles', evening)).toBe('2026-12-01');
    expect(nextFundingDate('America/Chicago', evening)).toBe('2026-12-01');
    expect(nextFundingDate(UTC, evening)).toBe('2027-01-01');
    // The last moment of the funding day in Chicago, and the first of the next (CST, UTC-6).
    expect(nextFundingDate('America/Chicago', new Date('2026-12-02T05:59:59Z'))).toBe('2026-12-01');
    expect(nextFundingDate('America/Chicago', new Date('2026-12-02T06:00:00Z'))).toBe('2027-01-01');
    // East of UTC the business's day starts first: 10 pm UTC on 11/30 is already 12/01 in Tokyo, the funding day.
    expect(nextFundingDate('Asia/Tokyo', new Date('2026-11-30T22:00:00Z'))).toBe('2026-12-01');
    // Friday 2027-01-01, the funding day, until midnight in Los Angeles (PST, UTC-8); then February's (Monday the 1st).
    expect(nextFundingDate('America/Los_Angeles', new Date('2027-01-02T07:59:00Z'))).toBe('2027-01-01');
    expect(nextFundingDate('America/Los_Angeles', new Date('2027-01-02T08:00:00Z'))).toBe('2027-02-01');
  });
});
