import { describe, expect, it } from 'vitest';
import { couponFormValues } from './couponFormValues';

describe("the create form's StartDate", () => {
  // Local times (the machine's zone, whichever it is): the day the user sees on their own clock.
  it("defaults to the user's own day late in the evening, when it is already tomorrow in UTC west of it", () => {
    expect(couponFormValues(null, new Date(2026, 11, 31, 17, 0)).StartDate).toBe('2026-12-31');
    expect(couponFormValues(null, new Date(2026, 11, 31, 23, 30)).StartDate).toBe('2026-12-31');
  });

  it("defaults to the user's own day just after midnight, when it is still yesterday in UTC east of it", () => {
    expect(couponFormValues(null, new Date(2027, 0, 1, 0, 30)).StartDate).toBe('2027-01-01');
  });

  it("keeps an edited coupon's own StartDate", () => {
    const coupon = {
      ID: 1,
      Code: 'SPRING-25',
      Product: 'Amethyst',
      MembershipType: 'Year Membership',
      DiscountType: 'Months',
      StartDate: '2026-03-01',
      EndDate: null,
      Status: 'Active',
      DateCreated: '2026-02-01T00:00:00.000Z',
      Version: 1,
    } as const;
    expect(couponFormValues(coupon, new Date(2026, 11, 31, 23, 30)).StartDate).toBe('2026-03-01');
  });
});
