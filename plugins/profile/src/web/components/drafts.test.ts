import { createKeySchema } from '@portal/core';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';

// The web kernel's entry cannot load in a unit test (it creates vanilla-extract styles); the drafts use only its
// SubmissionKeys from it, so that comes from its own module, the real class; and only the unsaved-changes parts of the
// kit, from theirs.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/submissionKeys'));
vi.mock('@portal/web/kit', () => import('../../../../../platform/web/src/kit/form/unsaved'));

import type { Address, Member } from '../../contract';
import { addressValuesOf, panelAddress } from './addressForm';
import { DraftStore, draftKey, endWithSession, lastAddress, shownRecord } from './drafts';
import { type FormValues, saveBodyOf, toForm } from './memberForm';

const member = (change: Partial<Member> = {}): Member => ({
  MemberID: 7,
  MemberNumber: 'M0000007',
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Email: 'ada@example.com',
  DateOfBirth: '1980-02-29',
  DOBStr: '02/29/1980',
  Gender: 'F',
  HomePhone: '3125550142',
  WorkPhone: null,
  MobilePhone: '6465551001',
  PreferredContactNumber: 'Home',
  IsPhoneValidated: false,
  IsMSA: false,
  PBMVendor: null,
  ApprovedDate: null,
  TerminationDate: null,
  TerminatedBy: null,
  Version: 3,
  IsMobileRequired: false,
  ...change,
});
const address = (change: Partial<Address> = {}): Address => ({
  AddressID: 11,
  MemberID: 7,
  Address1: '1 Main St',
  Address2: null,
  City: 'Denver',
  State: 'CO',
  Zip: '80202',
  AddressTypeID: 4,
  IsCurrent: true,
  IsSelected: false,
  Version: 2,
  ...change,
});

const details = draftKey('own', 7, 'member');

describe('profile drafts: an open edit survives its panel (the kit Tabs draw only the selected one)', () => {
  it('keeps the values as typed and the record the edit started from, after the form that typed them is gone', () => {
    const store = new DraftStore();
    const start = member();
    store.open(details, start, toForm(start));
    store.edit(details, { ...toForm(start), LastName: 'King' });
    // The Details tab was left (its form unmounted) and opened again: the edit is there, as typed.
    const back = store.get<Member, FormValues>(details);
    expect(back?.values.LastName).toBe('King');
    expect(back?.start.Version).toBe(3);
  });

  it('keeps edits apart by scope, member and editor', () => {
    const store = new DraftStore();
    store.open(draftKey('own', 7, 'member'), member(), toForm(member()));
    store.open(draftKey('support', 7, 'address/11'), address(), addressValuesOf(address()));
    expect(store.get(draftKey('support', 7, 'member'))).toBeUndefined();
    expect(store.get(draftKey('own', 8, 'member'))).toBeUndefined();
    expect(store.get(draftKey('own', 7, 'address/11'))).toBeUndefined();
    expect(store.get<Address, unknown>(draftKey('support', 7, 'address/11'))?.start.AddressID).toBe(11);
  });

  it('takes no typing for an edit that is not open (a form still reporting after Save or Cancel ended it)', () => {
    const store = new DraftStore();
    store.edit(details, toForm(member()));
    expect(store.get(details)).toBeUndefined();
  });

  it('ends an edit on save or cancel, leaving the others', () => {
    const store = new DraftStore();
    const other = draftKey('own', 7, 'address/new');
    store.open(details, member(), toForm(member()));
    store.open(other, null, addressValuesOf(null));
    store.close(details);
    expect(store.get(details)).toBeUndefined();
    expect(store.get(other)).toBeDefined();
  });

  it('opens the edit again from the record as it is now on Reload: its values and Version, drawn as a new form', () => {
    const store = new DraftStore();
    store.open(details, member(), toForm(member()));
    store.edit(details, { ...toForm(member()), LastName: 'King' });
    const before = store.get(details)?.id;
    const now = member({ FirstName: 'Augusta', Version: 4 });
    store.open(details, now, toForm(now));
    const after = store.get<Member, FormValues>(details);
    expect(after?.start.Version).toBe(4);
    expect(after?.values).toEqual(toForm(now));
    expect(after?.id).not.toBe(before);
  });

  it('redraws its readers when an edit opens or ends, not for each keystroke', () => {
    const store = new DraftStore();
    const listener = vi.fn();
    const stop = store.subscribe(listener);
    store.open(details, member(), toForm(member()));
    store.edit(details, { ...toForm(member()), LastName: 'King' });
    store.close(details);
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    store.open(details, member(), toForm(member()));
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('what the leave guard asks the store (its edits outlive the page: a sign-out and a closing tab ask it)', () => {
  it('holds an edit from its opening to its end, and unsaved changes only while the values differ from those it opened with', () => {
    const store = new DraftStore();
    expect(store.holdsAny()).toBe(false);
    expect(store.unsaved()).toBe(false);
    store.open(details, member(), toForm(member()));
    // Edit pressed, nothing typed: nothing to lose.
    expect(store.holdsAny()).toBe(true);
    expect(store.unsaved()).toBe(false);
    store.edit(details, { ...toForm(member()), LastName: 'King' });
    expect(store.unsaved()).toBe(true);
    // Typed back to what it was: nothing to lose again.
    store.edit(details, toForm(member()));
    expect(store.unsaved()).toBe(false);
    store.edit(details, { ...toForm(member()), LastName: 'King' });
    store.close(details);
    expect(store.holdsAny()).toBe(false);
    expect(store.unsaved()).toBe(false);
  });

  it('counts a new address typed into, and an edit opened again (Reload) from where it then starts', () => {
    const store = new DraftStore();
    const added = draftKey('own', 7, 'address/new');
    store.open(added, null, addressValuesOf(null));
    expect(store.unsaved()).toBe(false);
    store.edit(added, { ...addressValuesOf(null), City: 'Denver' });
    expect(store.unsaved()).toBe(true);
    store.close(added);
    store.open(details, member(), toForm(member()));
    store.edit(details, { ...toForm(member()), LastName: 'King' });
    const reloaded = member({ LastName: 'King', Version: 4 });
    store.open(details, reloaded, toForm(reloaded));
    expect(store.unsaved()).toBe(false);
  });
});

describe("a new address's IdempotencyKey lives in its edit, as what was typed does", () => {
  const added = draftKey('own', 7, 'address/new');
  const fields = { MemberID: 7, Address1: '1 Main St', City: 'Denver', State: 'CO', Zip: '80202' };

  it('sends the key of the failed save again after the tab was left and opened again (the form drawn anew)', () => {
    const store = new DraftStore();
    store.open(added, null, addressValuesOf(null));
    // Save pressed; the answer was lost (the connection dropped).
    const sent = store.get(added)?.keys.keyFor(fields) as string;
    expect(createKeySchema.safeParse(sent).success, sent).toBe(true);
    // The form reports what is typed, the tab is left (its form unmounted) and opened again: Save sends that key.
    store.edit(added, { ...addressValuesOf(null), Address1: '1 Main St' });
    expect(store.get(added)?.keys.keyFor(fields)).toBe(sent);
    // The address changed before it is saved again: another submission, another key.
    expect(store.get(added)?.keys.keyFor({ ...fields, City: 'Boulder' })).not.toBe(sent);
  });

  it('starts with new keys when the edit ends and another opens (Cancel, then Add address)', () => {
    const store = new DraftStore();
    store.open(added, null, addressValuesOf(null));
    const sent = store.get(added)?.keys.keyFor(fields);
    store.close(added);
    store.open(added, null, addressValuesOf(null));
    expect(store.get(added)?.keys.keyFor(fields)).not.toBe(sent);
  });
});

describe('an open edit keeps the record it started from, whatever the live query brings', () => {
  it('shows (and saves at the Version of) the start record while the edit is open, and the live record otherwise', () => {
    const store = new DraftStore();
    const start = member();
    store.open(details, start, toForm(start));
    store.edit(details, { ...toForm(start), LastName: 'King' });
    // A refetch (reconnect, a tab opened again after the stale time) brought someone else's save.
    const live = member({ LastName: 'Byron', Version: 4 });
    const draft = store.get<Member, FormValues>(details);
    const shown = shownRecord(draft, live);
    expect(shown.Version).toBe(3);
    // The save still sends Version 3 (the server answers 409 and the Reload notice shows): never a silent overwrite of
    // Byron, and King is still typed.
    expect(saveBodyOf(shown, draft?.values as FormValues)).toMatchObject({ Version: 3, LastName: 'King' });
    store.close(details);
    expect(shownRecord(store.get<Member, FormValues>(details), live).LastName).toBe('Byron');
  });

  it('shows the chosen address as its edit started, even when the list has a newer Version or lost it', () => {
    const started = address({ Address1: '1 Main St', Version: 2 });
    const newer = address({ Address1: '9 Other Rd', Version: 3 });
    expect(panelAddress(11, started, [newer])).toBe(started);
    expect(panelAddress(11, started, [])).toBe(started);
    expect(panelAddress(11, undefined, [newer])).toBe(newer);
    // An edit of another address does not stand in for the chosen one.
    expect(panelAddress(12, started, [newer, address({ AddressID: 12 })])?.AddressID).toBe(12);
    expect(panelAddress('new', null, [newer])).toBeNull();
    expect(panelAddress(null, undefined, [newer])).toBeNull();
  });
});

describe('the Addresses tab opened again', () => {
  it('opens the last address opened of those with an edit open, for that member and scope only', () => {
    const store = new DraftStore();
    expect(lastAddress(store, 'own', 7)).toBeNull();
    store.open(draftKey('own', 7, 'address/11'), address(), addressValuesOf(address()));
    store.open(draftKey('own', 7, 'address/new'), null, addressValuesOf(null));
    store.open(draftKey('own', 8, 'address/30'), address({ AddressID: 30, MemberID: 8 }), addressValuesOf(null));
    store.open(draftKey('own', 7, 'member'), member(), toForm(member()));
    expect(lastAddress(store, 'own', 7)).toBe('new');
    expect(lastAddress(store, 'support', 7)).toBeNull();
    expect(lastAddress(store, 'own', 8)).toBe(30);
    // Edit pressed again on address 11: it is the newest.
    store.open(draftKey('own', 7, 'address/11'), address(), addressValuesOf(address()));
    expect(lastAddress(store, 'own', 7)).toBe(11);
    store.close(draftKey('own', 7, 'address/11'));
    expect(lastAddress(store, 'own', 7)).toBe('new');
  });
});

describe('drafts end with the session', () => {
  const identity = ['kernel', 'identity'] as const;

  it('are forgotten when the identity leaves the cache (sign-out empties it), so the next user never sees them', () => {
    const store = new DraftStore();
    const queryClient = new QueryClient();
    const stop = endWithSession(store, queryClient, identity);
    queryClient.setQueryData(identity, { Id: 'a' });
    queryClient.setQueryData(['profile', 'member'], member());
    store.open(details, member(), toForm(member()));
    // A refetch or another query going does not end them.
    void queryClient.invalidateQueries({ queryKey: identity });
    queryClient.removeQueries({ queryKey: ['profile', 'member'] });
    expect(store.get(details)).toBeDefined();
    queryClient.clear();
    expect(store.get(details)).toBeUndefined();
    stop();
  });

  it('are forgotten when a new session removes the earlier one’s queries', () => {
    const store = new DraftStore();
    const queryClient = new QueryClient();
    endWithSession(store, queryClient, identity);
    queryClient.setQueryData(identity, { Id: 'a' });
    store.open(details, member(), toForm(member()));
    queryClient.removeQueries({ predicate: (q) => !(q.queryKey[0] === 'kernel' && q.queryKey[1] === 'config') });
    expect(store.get(details)).toBeUndefined();
  });
});
