import type { PageRequest } from '@portal/web/kit';
import { describe, expect, it } from 'vitest';
import { COUPON_CODE_MAX_LENGTH, couponSearchSchema } from '../../contract';
import { COUPON_SEARCH_MAX_LENGTH, couponSearchBody } from './searchRequest';

const request = (search: string): PageRequest => ({ pageIndex: 2, pageSize: 30, sortColumn: 'Code', sortOrder: 'asc', filters: {}, search });

describe("the coupons grid's search request", () => {
  it('sends the search text as the box shows it, never cut at 40 characters', () => {
    const typed = 'A'.repeat(COUPON_CODE_MAX_LENGTH + 5);
    const body = couponSearchBody(request(typed));
    expect(body.Query).toEqual({ SearchString: typed });
    // The contract takes it as sent, so the server searches the same text (and finds no code that long).
    expect(couponSearchSchema.parse(body).Query.SearchString).toBe(typed);
  });

  it('sends the page, size and sort, and no search for an empty box', () => {
    expect(couponSearchBody(request(''))).toEqual({ PageIndex: 2, PageSize: 30, SortColumn: 'Code', SortOrder: 'ASC', Query: {} });
  });

  it("stops the box at a code's longest length, so the limit is visible as the user types", () => {
    expect(COUPON_SEARCH_MAX_LENGTH).toBe(COUPON_CODE_MAX_LENGTH);
  });
});
