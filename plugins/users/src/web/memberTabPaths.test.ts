import { describe, expect, it } from 'vitest';
import { memberTabPath, selectedMemberTab, USER_DETAIL_TAB_PATH } from './memberTabPaths';

// The six tabs the profile, support, billing and contacts plugins contribute, in their order.
const TAB_IDS = ['details-profile', 'details-addresses', 'details-transactions', 'details-subscription', 'details-contacts', 'details-card'];

describe('member tab addresses (spec 02 section 2: /users/:id/details-*)', () => {
  it('are the spec’s /users/:id/details-* paths, the user id encoded', () => {
    expect(USER_DETAIL_TAB_PATH).toBe('/users/:id/:tab?');
    expect(memberTabPath('abc-1', 'details-subscription')).toBe('/users/abc-1/details-subscription');
    expect(memberTabPath('a/b', 'details-card')).toBe('/users/a%2Fb/details-card');
  });

  it('select the tab a segment names, in any letter case', () => {
    expect(selectedMemberTab(TAB_IDS, 'details-contacts')).toBe('details-contacts');
    expect(selectedMemberTab(TAB_IDS, 'Details-Card')).toBe('details-card');
  });

  it('select the first tab when there is no segment or no tab of that id', () => {
    expect(selectedMemberTab(TAB_IDS, undefined)).toBe('details-profile');
    expect(selectedMemberTab(TAB_IDS, 'details-nothing')).toBe('details-profile');
    expect(selectedMemberTab(TAB_IDS.slice(0, 2), 'details-card')).toBe('details-profile');
    expect(selectedMemberTab([], 'details-card')).toBeUndefined();
  });
});
