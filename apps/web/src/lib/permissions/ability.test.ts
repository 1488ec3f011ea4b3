import { describe, expect, it } from 'vitest';
import { ability, rulesFromPermissions, updateAbility } from './ability';

describe('permissions', () => {
  it('turns each entry into a rule: basename as subject, actions as allowed actions', () => {
    updateAbility([
      { basename: 'users', actions: ['view', 'impersonate'] },
      { basename: 'system_logs', actions: ['view'] },
    ]);
    expect(ability.can('view', 'users')).toBe(true);
    expect(ability.can('impersonate', 'users')).toBe(true);
    expect(ability.can('delete', 'users')).toBe(false);
    expect(ability.can('view', 'alerts')).toBe(false);
  });

  it('ignores entries lacking a basename or actions', () => {
    const rules = rulesFromPermissions([
      { basename: 'alerts' },
      { actions: ['view'] },
      { basename: '', actions: ['view'] },
      { basename: 'incidents', actions: [] },
      null,
      { basename: 'companies', actions: ['view'] },
    ]);
    expect(rules).toEqual([{ action: ['view'], subject: 'companies' }]);
  });

  it('is rebuilt each time: nothing remains of the previous user', () => {
    updateAbility([{ basename: 'users', actions: ['view'] }]);
    updateAbility(null);
    expect(ability.can('view', 'users')).toBe(false);
  });
});
