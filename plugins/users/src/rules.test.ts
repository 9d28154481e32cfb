import { describe, expect, it } from 'vitest';
import { applyRoleClick, conflictMessage, may, rankOf, roleConflicts, standingOf } from './rules';

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
