import { describe, expect, it } from 'vitest';
import { SeenVersions } from './seenVersions';

const bills = () => new SeenVersions<{ ClaimID: number; Version: number }>((r) => r.ClaimID);

describe('the versions a bulk action names', () => {
  it('names each selected row with the Version the list last showed, and one never shown by its id alone', () => {
    const seen = bills();
    seen.see([
      { ClaimID: 1, Version: 3 },
      { ClaimID: 2, Version: 1 },
    ]);
    // Another page, or the same page fetched again: the latest Version wins.
    seen.see([{ ClaimID: 2, Version: 4 }]);
    expect(seen.refs(['1', '2', '9'])).toEqual([{ ID: 1, Version: 3 }, { ID: 2, Version: 4 }, 9]);
  });

  it('keeps the versions of a selection across pages, so a row on a page no longer shown still names what the user saw', () => {
    const seen = bills();
    seen.see([{ ClaimID: 1, Version: 2 }]);
    seen.see([{ ClaimID: 21, Version: 5 }]);
    expect(seen.refs([1, 21])).toEqual([
      { ID: 1, Version: 2 },
      { ID: 21, Version: 5 },
    ]);
  });

  it('follows an action that moved each row one Version on, once however often selected, and leaves rows never shown alone', () => {
    const seen = new SeenVersions<{ ID: number; Version: number }>((r) => r.ID);
    seen.see([
      { ID: 1, Version: 3 },
      { ID: 2, Version: 1 },
    ]);
    seen.movedOn(['1', '1', '9']);
    expect(seen.refs(['1', '2', '9'])).toEqual([{ ID: 1, Version: 4 }, { ID: 2, Version: 1 }, 9]);
  });

  it('forgets deleted rows', () => {
    const seen = bills();
    seen.see([{ ClaimID: 1, Version: 3 }]);
    seen.forget(['1']);
    expect(seen.refs(['1'])).toEqual([1]);
  });
});
