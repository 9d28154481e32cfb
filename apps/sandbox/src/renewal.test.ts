import { describe, expect, it } from 'vitest';
import { anchorDayOf, renewalAfter } from './renewal';

/** The renewals of a subscription started at `start`, each from the one before, as the recurring run moves them. */
function renewals(start: string, months: number, count: number): string[] {
  const first = new Date(start);
  const anchor = anchorDayOf(first);
  const out: string[] = [];
  let next = first;
  for (let i = 0; i < count; i++) {
    next = renewalAfter(next, months, anchor);
    out.push(next.toISOString());
  }
  return out;
}

describe("the sandbox gateway's renewals keep the day the subscription started", () => {
  it('a monthly one started on 01/31 renews on each month’s last day when the month is shorter: February is charged', () => {
    expect(renewals('2026-01-31T15:00:00.000Z', 1, 4)).toEqual([
      '2026-02-28T15:00:00.000Z',
      '2026-03-31T15:00:00.000Z',
      '2026-04-30T15:00:00.000Z',
      '2026-05-31T15:00:00.000Z',
    ]);
  });

  it('in a leap year February ends on the 29th', () => {
    expect(renewals('2028-01-31T09:30:00.000Z', 1, 3)).toEqual(['2028-02-29T09:30:00.000Z', '2028-03-31T09:30:00.000Z', '2028-04-30T09:30:00.000Z']);
    expect(renewals('2028-01-30T09:30:00.000Z', 1, 2)).toEqual(['2028-02-29T09:30:00.000Z', '2028-03-30T09:30:00.000Z']);
  });

  it('a yearly one started on a leap day renews on 02/28, and on 02/29 again in the next leap year', () => {
    expect(renewals('2028-02-29T12:00:00.000Z', 12, 4)).toEqual([
      '2029-02-28T12:00:00.000Z',
      '2030-02-28T12:00:00.000Z',
      '2031-02-28T12:00:00.000Z',
      '2032-02-29T12:00:00.000Z',
    ]);
  });

  it('runs across the year end, and a day every month has stays as it is', () => {
    expect(renewals('2026-11-30T23:59:59.999Z', 1, 4)).toEqual([
      '2026-12-30T23:59:59.999Z',
      '2027-01-30T23:59:59.999Z',
      '2027-02-28T23:59:59.999Z',
      '2027-03-30T23:59:59.999Z',
    ]);
    expect(renewals('2026-01-15T00:00:00.000Z', 1, 2)).toEqual(['2026-02-15T00:00:00.000Z', '2026-03-15T00:00:00.000Z']);
  });
});
