import { describe, expect, it } from 'vitest';
import { applyRoleClick, changeRefusal, conflictMessage, loginStatus, may, rankOf, roleConflicts, standingOf } from './rules';

describe('role exclusivity', () => {
  it('selecting SystemAdmin clears every role except SystemAdmin and Broker', () => {
    expect(applyRoleClick(['Adjuster', 'TeamLead'], 'SystemAdmin', true)).toEqual({
      roles: ['SystemAdmin'],
      cleared: [
        { role: 'Adjuster', because: 'SystemAdmin' },
        { role: 'TeamLead', because: 'SystemAdmin' },
      ],
    });
    expect(applyRoleClick(['Broker'], 'SystemAdmin', true)).toEqual({ roles: ['SystemAdmin', 'Broker'], cleared: [] });
  });

  it('selecting Adjuster clears every role except Adjuster and TeamLead', () => {
    expect(applyRoleClick(['SystemAdmin', 'Broker'], 'Adjuster', true).roles).toEqual(['Adjuster']);
    expect(applyRoleClick(['TeamLead'], 'Adjuster', true)).toEqual({ roles: ['Adjuster', 'TeamLead'], cleared: [] });
  });

  it('selecting Broker clears Adjuster; selecting TeamLead clears SystemAdmin (whose rule forbids it)', () => {
    expect(applyRoleClick(['Adjuster', 'TeamLead'], 'Broker', true)).toEqual({
      roles: ['Broker', 'TeamLead'],
      cleared: [{ role: 'Adjuster', because: 'Broker' }],
    });
    expect(applyRoleClick(['SystemAdmin'], 'TeamLead', true)).toEqual({ roles: ['TeamLead'], cleared: [{ role: 'SystemAdmin', because: 'SystemAdmin' }] });
  });

  it('unselecting only removes the box', () => {
    expect(applyRoleClick(['SystemAdmin', 'Broker'], 'Broker', false)).toEqual({ roles: ['SystemAdmin'], cleared: [] });
  });

  it('finds every broken rule and words the refusal', () => {
    expect(roleConflicts(['SystemAdmin', 'Broker'])).toEqual([]);
    expect(roleConflicts(['Adjuster', 'TeamLead'])).toEqual([]);
    const conflicts = roleConflicts(['Adjuster', 'Broker']);
    expect(String(conflictMessage(conflicts))).toBe(
      'Adjuster cannot be combined with Broker (only with TeamLead). Broker cannot be combined with Adjuster (only with SystemAdmin or TeamLead).',
    );
  });

  it('stands a SuperUser as high as a SystemAdmin against a change, without giving a SuperUser any administration rank', () => {
    expect(standingOf(['SuperUser'])).toBe(3);
    expect(standingOf(['superuser', 'CareSupport'])).toBe(3);
    expect(standingOf(['CareSupport', 'TeamLead'])).toBe(2);
    expect(standingOf(['CareSupport'])).toBe(0);
    expect(rankOf(['SuperUser', 'CareSupport'])).toBe(0);
  });

  it('ranks roles and capabilities', () => {
    expect(rankOf(['CareSupport'])).toBe(0);
    expect(rankOf(['Broker', 'TeamLead'])).toBe(2);
    expect(rankOf(['SystemAdmin'])).toBe(3);
    expect(may(['CareSupport', 'TeamLead'], 'quotas')).toBe(true);
    expect(may(['CareSupport', 'TeamLead'], 'permissions')).toBe(false);
  });
});

describe('who may change a user (the rule the server enforces and the web shows Edit by)', () => {
  const lead = { id: 'lead', roles: ['CareSupport', 'TeamLead'] };
  const staff = (id: string, roles: string[]) => ({ id, standing: standingOf(roles), isMember: false });

  it('refuses your own roles, quotas, teams and permissions, never your own details (whatever your standing)', () => {
    const self = staff('lead', lead.roles);
    expect(changeRefusal(lead, self, 'roles')).toBe('own');
    expect(changeRefusal(lead, self, 'quotas')).toBe('own');
    expect(changeRefusal(lead, self, 'teams')).toBe('own');
    expect(changeRefusal(lead, self, 'details')).toBeNull();
    // A SuperUser with CareSupport stands as high as a SystemAdmin but holds no administration rank: their own details are still theirs.
    const superSupport = { id: 'ss', roles: ['CareSupport', 'SuperUser'] };
    expect(changeRefusal(superSupport, staff('ss', superSupport.roles), 'details')).toBeNull();
    const admin = { id: 'admin', roles: ['CareSupport', 'SystemAdmin'] };
    expect(changeRefusal(admin, staff('admin', admin.roles), 'permissions')).toBe('own');
  });

  it('refuses a user who outranks the caller, a member login, and a capability the caller lacks', () => {
    expect(changeRefusal(lead, staff('admin', ['CareSupport', 'SystemAdmin']), 'details')).toBe('outranked');
    expect(changeRefusal(lead, staff('admin', ['CareSupport', 'SystemAdmin']), 'quotas')).toBe('outranked');
    expect(changeRefusal(lead, staff('other', ['CareSupport', 'TeamLead']), 'quotas')).toBeNull();
    expect(changeRefusal({ id: 'cs', roles: ['CareSupport'] }, staff('su', ['CareSupport', 'SuperUser']), 'details')).toBe('outranked');
    expect(changeRefusal({ id: 'cs', roles: ['CareSupport'] }, staff('x', ['CareSupport']), 'details')).toBeNull();
    expect(changeRefusal({ id: 'cs', roles: ['CareSupport'] }, staff('x', ['CareSupport']), 'roles')).toBe('needsRole');
    expect(changeRefusal(lead, staff('x', []), 'permissions')).toBe('needsRole');
    expect(changeRefusal(lead, { id: 'm', standing: 0, isMember: true }, 'details')).toBe('member');
  });
});

describe('login status', () => {
  it('shows a closed login as closed whatever its activation', () => {
    expect(loginStatus({ IsActive: true, IsClosed: true })).toBe('closed');
    expect(loginStatus({ IsActive: true, IsClosed: false })).toBe('active');
    expect(loginStatus({ IsActive: false, IsClosed: false })).toBe('inactive');
  });
});
