import { describe, expect, it } from 'vitest';
import { ACTIONS, clearsSelection } from './bulkActions';

describe('the selection after a bulk action succeeded', () => {
  it('is cleared after a delete: the deleted coupons are no longer there to act on', () => {
    expect(clearsSelection('delete')).toBe(true);
  });

  it('is kept after activate and deactivate', () => {
    expect(ACTIONS.filter((a) => !clearsSelection(a))).toEqual(['activate', 'deactivate']);
  });
});
