import { dayOfLocalDate, formatIsoDay } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, todayUtc } from '../../rules';
import { localDefaultRange, localToday } from './format';

// 6:30 pm on March 10 in Los Angeles: 01:30 UTC on March 11.
const evening = new Date('2026-03-11T01:30:00Z');

describe("the list pages' default range ends on the member's today, not the UTC day", () => {
  it('in a US evening, when the UTC day is already tomorrow, To is still today', () => {
    expect(todayUtc(evening)).toBe('2026-03-11');
    expect(localToday(evening, 'America/Los_Angeles')).toBe('2026-03-10');
    expect(localDefaultRange('activity', evening, 'America/Los_Angeles')).toEqual({ From: addDays('2026-03-10', -90), To: '2026-03-10' });
    expect(localDefaultRange('ledger', evening, 'America/Los_Angeles')).toEqual({ From: '2025-03-10', To: '2026-03-10' });
    // East of UTC the member's day starts first: 15:30 UTC on March 11 is 00:30 on March 12 in Tokyo.
    expect(localDefaultRange('activity', new Date('2026-03-11T15:30:00Z'), 'Asia/Tokyo').To).toBe('2026-03-12');
  });

  it("without a zone, takes the day where the page runs (the browser's zone)", () => {
    // The runtime's own calendar day (dayOfLocalDate). Under a test runner in UTC it is also the UTC day, so the
    // US-evening case above is checked with an explicit zone.
    for (const at of [evening, new Date('2026-03-11T12:00:00Z'), new Date('2026-03-11T23:30:00Z')]) {
      const local = formatIsoDay(dayOfLocalDate(at));
      expect(localToday(at)).toBe(local);
      expect(localDefaultRange('ledger', at)).toEqual({ From: addMonths(local, -12), To: local });
    }
  });
});
