import { describe, expect, it } from 'vitest';
import { ACTIONS, applyTakesFocus, clearsSelection } from './bulkActions';

describe('the selection after a bulk action succeeded', () => {
  it('is cleared after a delete: the deleted coupons are no longer there to act on', () => {
    expect(clearsSelection('delete')).toBe(true);
  });

  it('is kept after activate and deactivate', () => {
    expect(ACTIONS.filter((a) => !clearsSelection(a))).toEqual(['activate', 'deactivate']);
  });
});

describe('focus after a delete started the grid again', () => {
  const body = { name: 'body' };
  it('goes to the new Apply when it was lost with the old one (the confirm dialog had nothing left to return it to)', () => {
    expect(applyTakesFocus(true, body, body)).toBe(true);
    expect(applyTakesFocus(true, null, body)).toBe(true);
  });

  it('stays where the user put it meanwhile, and nothing moves on the first drawing of the page', () => {
    expect(applyTakesFocus(true, { name: 'search' }, body)).toBe(false);
    expect(applyTakesFocus(false, body, body)).toBe(false);
  });
});
