import type { PageRequest } from '@portal/web/kit';
import { COUPON_CODE_MAX_LENGTH, type CouponSearch } from '../../contract';

/**
 * The search box's limit: a code has at most COUPON_CODE_MAX_LENGTH characters, so longer text cannot match one. The
 * box stops typing (and trims a paste) there, so the user sees the limit instead of text the search leaves out.
 */
export const COUPON_SEARCH_MAX_LENGTH = COUPON_CODE_MAX_LENGTH;

/**
 * The grid's request as the coupons search takes it. The search text goes as the box shows it, never cut: text put in
 * the box another way (a search in the address longer than the box takes) finds what it says, which is no coupon,
 * rather than the coupons of the first 40 characters.
 */
export function couponSearchBody(req: PageRequest): CouponSearch {
  return {
    PageIndex: req.pageIndex,
    PageSize: req.pageSize,
    SortColumn: (req.sortColumn ?? 'DateCreated') as 'DateCreated',
    SortOrder: req.sortOrder === 'asc' ? 'ASC' : 'DESC',
    Query: req.search ? { SearchString: req.search } : {},
  };
}
