import { ApiCallError } from '@portal/web';
import { describe, expect, it, vi } from 'vitest';

// The web kernel's entry cannot load in a unit test (it creates vanilla-extract styles); the drafts use only its call
// error from it, so that comes from its own module, the real class.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/errors'));

import { advanceVersion, dropDraft, editDraft, isStaleSave, markStale, openDrafts, savedDraft, startDraft, type TabDrafts, unsavedDrafts } from './tabDrafts';

describe('user page tab drafts (kept on the page, so switching tabs keeps unsaved edits)', () => {
  it('keeps each tab’s typed values side by side, with the Version each was typed against', () => {
    let d: TabDrafts = {};
    d = startDraft(d, 'permissions', [1], 4);
    d = startDraft(d, 'quotas', [{ MonthNumber: 1, min: '', max: '' }], 4);
    d = editDraft(d, 'quotas', (rows) => rows.map((r) => ({ ...r, min: '2', max: '9' })));
    d = editDraft(d, 'permissions', (ids) => [...ids, 3]);
    expect(d.quotas).toEqual({ value: [{ MonthNumber: 1, min: '2', max: '9' }], opened: [{ MonthNumber: 1, min: '', max: '' }], version: 4, stale: false });
    expect(d.permissions).toEqual({ value: [1, 3], opened: [1], version: 4, stale: false });
    expect(openDrafts(d).sort()).toEqual(['permissions', 'quotas']);
  });

  it('does not edit a tab that has no edit open', () => {
    const d = editDraft({}, 'roles', () => ({ roles: ['Broker'], cleared: [] }));
    expect(d).toEqual({});
  });

  it('a stale refusal keeps the typed values and their Version until a reload starts the edit again', () => {
    let d = startDraft({}, 'roles', { roles: ['Broker'], cleared: [] }, 7);
    d = markStale(d, 'roles');
    d = editDraft(d, 'roles', (v) => ({ ...v, roles: ['Broker', 'TeamLead'] }));
    expect(d.roles).toEqual({ value: { roles: ['Broker', 'TeamLead'], cleared: [] }, opened: { roles: ['Broker'], cleared: [] }, version: 7, stale: true });
    d = startDraft(d, 'roles', { roles: ['Adjuster'], cleared: [] }, 8);
    expect(d.roles).toEqual({ value: { roles: ['Adjuster'], cleared: [] }, opened: { roles: ['Adjuster'], cleared: [] }, version: 8, stale: false });
  });

  it('ends one tab’s edit on save or cancel, leaving the others', () => {
    let d = startDraft(startDraft({}, 'permissions', [2], 1), 'details', { FirstName: 'A', LastName: 'B', CompanyId: 1, ContactId: 2, Language: 'en' }, 1);
    d = dropDraft(d, 'permissions');
    expect(openDrafts(d)).toEqual(['details']);
    expect(d.details?.value.FirstName).toBe('A');
  });
});

describe('saves made on this page', () => {
  it('move the other open edits to the new Version, so our own save does not make them stale', () => {
    let d = startDraft({}, 'details', { FirstName: 'A', LastName: 'B', CompanyId: 1, ContactId: 2, Language: 'en' }, 5);
    d = startDraft(d, 'roles', { roles: ['Broker'], cleared: [] }, 5);
    d = startDraft(d, 'permissions', [1], 4); // opened before someone else's change
    d = savedDraft(d, 'roles', 5, 6);
    expect(d.roles).toBeUndefined();
    expect(d.details?.version).toBe(6);
    expect(d.permissions?.version).toBe(4);
  });

  it('a team change (no draft of its own) moves the open edits too', () => {
    const d = advanceVersion(startDraft({}, 'quotas', [], 2), 2, 3);
    expect(d.quotas).toEqual({ value: [], opened: [], version: 3, stale: false });
  });
});

describe('stale saves', () => {
  it('counts only a 409 answer as stale (other failures keep the edit as it is)', () => {
    expect(isStaleSave(new ApiCallError('Someone else changed this user since you opened it.', 409))).toBe(true);
    expect(isStaleSave(new ApiCallError('Bad', 400))).toBe(false);
    expect(isStaleSave(new Error('offline'))).toBe(false);
  });
});

describe('what leaving the user page would lose (the leave guard asks the page, as the tabs draw only the selected one)', () => {
  it('an edit opened and left as it was, or changed back, loses nothing; one changed on any tab does', () => {
    let d = startDraft({}, 'details', { FirstName: 'Ada', LastName: 'King', CompanyId: 1, ContactId: undefined, Language: 'en' }, 2);
    d = startDraft(d, 'quotas', [{ MonthNumber: 1, min: '1', max: '5' }], 2);
    expect(unsavedDrafts(d)).toBe(false);
    d = editDraft(d, 'quotas', (rows) => rows.map((r) => ({ ...r, max: '6' })));
    expect(unsavedDrafts(d)).toBe(true);
    d = editDraft(d, 'quotas', (rows) => rows.map((r) => ({ ...r, max: '5' })));
    expect(unsavedDrafts(d)).toBe(false);
    d = editDraft(d, 'details', (v) => ({ ...v, LastName: 'Byron' }));
    expect(unsavedDrafts(d)).toBe(true);
    expect(unsavedDrafts(dropDraft(d, 'details'))).toBe(false);
  });

  it('a role or permission cleared and ticked again is no change, whatever the order; a stale edit still holds what was typed', () => {
    let d = startDraft({}, 'roles', { roles: ['Broker', 'TeamLead'], cleared: [] }, 7);
    d = editDraft(d, 'roles', () => ({ roles: ['TeamLead', 'Broker'], cleared: ['SystemAdmin clears Adjuster.'] }));
    expect(unsavedDrafts(d)).toBe(false);
    d = startDraft(d, 'permissions', [3, 1], 7);
    d = editDraft(d, 'permissions', () => [1, 3]);
    expect(unsavedDrafts(d)).toBe(false);
    d = editDraft(d, 'permissions', () => [1]);
    d = markStale(d, 'permissions');
    expect(unsavedDrafts(d)).toBe(true);
  });
});
