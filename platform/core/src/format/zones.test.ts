import { describe, expect, it } from 'vitest';
import { calendarDayIn, canonicalTimeZone, dayIn, isTimeZone } from './zones';

describe('the day a moment falls on, in a time zone', () => {
  // 6:30 pm on March 10 in Los Angeles (PDT, UTC-7) is already March 11 in UTC.
  const evening = new Date('2026-03-11T01:30:00Z');

  it('is the local day of that zone, not the UTC day', () => {
    expect(dayIn('America/Los_Angeles', evening)).toBe('2026-03-10');
    expect(dayIn('Pacific/Honolulu', evening)).toBe('2026-03-10');
    expect(dayIn('UTC', evening)).toBe('2026-03-11');
    expect(dayIn('Asia/Tokyo', new Date('2026-03-10T15:00:00Z'))).toBe('2026-03-11');
    expect(calendarDayIn('America/Chicago', evening)).toEqual({ year: 2026, month: 3, day: 10 });
  });

  it('turns over at local midnight across a daylight-saving change and a year end', () => {
    // 2026-11-01: Chicago goes from CDT (UTC-5) to CST (UTC-6); midnight of Nov 2 is 06:00 UTC.
    expect(dayIn('America/Chicago', new Date('2026-11-02T05:59:59Z'))).toBe('2026-11-01');
    expect(dayIn('America/Chicago', new Date('2026-11-02T06:00:00Z'))).toBe('2026-11-02');
    expect(dayIn('America/New_York', new Date('2027-01-01T04:59:59Z'))).toBe('2026-12-31');
    expect(dayIn('America/New_York', new Date('2027-01-01T05:00:00Z'))).toBe('2027-01-01');
  });
});

describe('a time zone named by a caller', () => {
  it('is taken by its canonical name, the one PostgreSQL knows too, and never as an offset', () => {
    expect(canonicalTimeZone('america/chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('US/Pacific')).toBe('America/Los_Angeles');
    expect(canonicalTimeZone('Etc/GMT+12')).toBe('Etc/GMT+12');
    for (const offset of ['+05:00', '-0800', 'UTC+3']) expect(canonicalTimeZone(offset), offset).toBeNull();
  });

  it('is taken only when the runtime knows it', () => {
    for (const zone of ['America/Chicago', 'Pacific/Honolulu', 'UTC', 'Europe/Madrid']) expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ['', 'Mars/Olympus_Mons', 'America/Chicago; drop table', 'x'.repeat(65), 7, null, undefined]) {
      expect(isTimeZone(zone), String(zone)).toBe(false);
    }
  });
});
