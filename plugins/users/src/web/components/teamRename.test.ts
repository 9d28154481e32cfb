import { describe, expect, it } from 'vitest';
import type { Team } from '../../contract';
import { openRename, renameFormKey, renameRefused, renameReloaded } from './teamRename';

const shown: Team = { Id: 3, TeamName: 'Claims', CompanyId: 1, Version: 2 };
const theirs: Team = { ...shown, TeamName: 'Claims desk', Version: 3 };
const other: Team = { Id: 4, TeamName: 'Billing', CompanyId: 1, Version: 1 };

describe("a team's rename refused with 409 keeps the dialog open with the typed name", () => {
  it('someone renamed the team since: the rename is stale (a Reload is offered) and still sends the Version it was opened at', () => {
    const refused = renameRefused(openRename(shown), [theirs, other]);
    expect(refused).toEqual({ team: shown, stale: true });
    // The typed name stays: the form is not drawn anew.
    expect(renameFormKey(refused)).toBe(renameFormKey(openRename(shown)));
  });

  it('the team deleted meanwhile, or the list not read, is stale too (Reload says which)', () => {
    expect(renameRefused(openRename(shown), [other]).stale).toBe(true);
    expect(renameRefused(openRename(shown), undefined).stale).toBe(true);
  });

  it('the same Version still stored: the name is taken by another team, no stale notice (the toast says so)', () => {
    const edit = openRename(shown);
    expect(renameRefused(edit, [shown, other])).toBe(edit);
  });

  it('a second press while stale is refused again and stays stale until Reload', () => {
    const stale = renameRefused(openRename(shown), [theirs]);
    expect(renameRefused(stale, [theirs])).toBe(stale);
  });
});

describe("the stale rename's Reload", () => {
  it('starts the edit over from the team as stored now (its name and Version): the form is drawn anew', () => {
    const stale = renameRefused(openRename(shown), [theirs]);
    const reloaded = renameReloaded(stale, [theirs, other]);
    expect(reloaded).toEqual({ team: theirs, stale: false });
    expect(renameFormKey(reloaded)).not.toBe(renameFormKey(stale));
  });

  it('closes the rename when the team is gone, and keeps it when the list could not be read', () => {
    const stale = renameRefused(openRename(shown), [theirs]);
    expect(renameReloaded(stale, [other])).toBeNull();
    expect(renameReloaded(stale, undefined)).toBe(stale);
  });
});
