import { describe, expect, it } from 'vitest';
import { capturedAtMost, receiptFigures } from './receipt';

// 2026-03-10 at 6:30 pm in Los Angeles (8:30 pm in Chicago): already 2026-03-11 in UTC.
const EVENING = new Date('2026-03-11T01:30:00.000Z');

describe('a receipt writes its amount grouped as every page does, and the day in the business’s zone', () => {
  it('groups thousands in English and in Spanish', () => {
    expect(receiptFigures(100_000, 'en', 'America/Chicago', EVENING).amount).toBe('$1,000.00');
    expect(receiptFigures(123_456_789, 'es', 'America/Chicago', EVENING).amount).toBe('$1,234,567.89');
    expect(receiptFigures(1_200, 'en', 'America/Chicago', EVENING).amount).toBe('$12.00');
  });

  it("dates the receipt with the business's day, not the server's UTC day", () => {
    expect(receiptFigures(1_200, 'en', 'America/Chicago', EVENING).day).toBe('Mar 10, 2026');
    expect(receiptFigures(1_200, 'es', 'America/Chicago', EVENING).day).toBe('10 mar 2026');
    // A business east of UTC is already on the next day earlier: 2026-03-10 at 4:30 pm UTC is 2026-03-11 in Tokyo.
    expect(receiptFigures(1_200, 'en', 'Asia/Tokyo', new Date('2026-03-10T16:30:00.000Z')).day).toBe('Mar 11, 2026');
  });

  it('words the capture limit with the authorized amount grouped', () => {
    expect(capturedAtMost(150_000)).toEqual({ amount: '$1,500.00' });
    expect(capturedAtMost(4_000)).toEqual({ amount: '$40.00' });
  });
});
