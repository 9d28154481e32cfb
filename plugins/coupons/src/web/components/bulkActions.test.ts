import { describe, expect, it } from 'vitest';
import { ACTIONS, applyTakesFocus, clearsSelection, SeenVersions } from './bulkActions';

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

describe('the versions a bulk action names', () => {
  it('names each selected coupon with the Version the list last showed, and one never shown by its id alone', () => {
    const seen = new SeenVersions();
    seen.see([
      { ID: 1, Version: 3 },
      { ID: 2, Version: 1 },
    ]);
    seen.see([{ ID: 2, Version: 4 }]);
    expect(seen.refs(['1', '2', '9'])).toEqual([{ ID: 1, Version: 3 }, { ID: 2, Version: 4 }, 9]);
  });

  it('follows the server after activate and deactivate (each coupon one version on, once however often selected)', () => {
    const seen = new SeenVersions();
    seen.see([
      { ID: 1, Version: 3 },
      { ID: 2, Version: 1 },
    ]);
    seen.applied('activate', ['1', '1', '9']);
    expect(seen.refs(['1', '2', '9'])).toEqual([{ ID: 1, Version: 4 }, { ID: 2, Version: 1 }, 9]);
    seen.applied('deactivate', ['1', '2']);
    expect(seen.refs(['1', '2'])).toEqual([
      { ID: 1, Version: 5 },
      { ID: 2, Version: 2 },
    ]);
  });

  it('forgets deleted coupons', () => {
    const seen = new SeenVersions();
    seen.see([{ ID: 1, Version: 3 }]);
    seen.applied('delete', ['1']);
    expect(seen.refs(['1'])).toEqual([1]);
  });
});
