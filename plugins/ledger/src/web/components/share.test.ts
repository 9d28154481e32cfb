import { describe, expect, it } from 'vitest';
import { adminBalanceScope } from '../../access';
import { adminBalanceText, balanceShare } from './share';

describe('balanceShare: the gauge value', () => {
  it('is the balance as a rounded percentage of what was set aside', () => {
    expect(balanceShare(1011.25, 1000.25)).toBe(100);
    expect(balanceShare(500, 1000)).toBe(50);
    expect(balanceShare(399.4, 1000)).toBe(40);
    expect(balanceShare(0.04, 1000)).toBe(0);
  });
  it('clamps to 0-100 and has no value without a set-aside', () => {
    expect(balanceShare(-50, 1000)).toBe(0);
    expect(balanceShare(2500, 1000)).toBe(100);
    expect(balanceShare(100, null)).toBeNull();
    expect(balanceShare(null, 1000)).toBeNull();
    expect(balanceShare(100, 0)).toBeNull();
  });
});

describe('the admin balance is every member’s only for a SuperUser acting for nobody; anyone else reads their own', () => {
  it('the scope follows the role and the member acted for, as the server answers', () => {
    expect(adminBalanceScope(['SuperUser'], null)).toBe('all');
    expect(adminBalanceScope(['SuperUser'], 42)).toBe('member');
    expect(adminBalanceScope(['CareGuardFinance'], 42)).toBe('member');
    expect(adminBalanceScope(['CareGuardFinance'], null)).toBe('member');
    expect(adminBalanceScope(['SuperUser'], undefined)).toBe('member');
  });
  it('the widget says whose it is: no member yet / every member, or the caller’s own account', () => {
    expect(adminBalanceText('all', null).key).toBe('widget.adminNone');
    expect(adminBalanceText('all', 40)).toEqual({ key: 'widget.adminShare', values: { share: 40 } });
    expect(adminBalanceText('member', null).key).toBe('widget.ownNone');
    expect(adminBalanceText('member', 40)).toEqual({ key: 'widget.ownShare', values: { share: 40 } });
  });
});
