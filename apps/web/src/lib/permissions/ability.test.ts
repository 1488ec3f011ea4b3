import { describe, expect, it } from 'vitest';
import { ability, createAbility, rulesFromPermissions, updateAbility } from './ability';

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

describe('createAbility', () => {
  it('allows only the named actions on the named subjects', () => {
    const own = createAbility([
      { action: ['view', 'change'], subject: 'alerts' },
      { action: 'view', subject: ['users', 'roles'] },
    ]);
    expect(own.can('view', 'alerts')).toBe(true);
    expect(own.can('change', 'alerts')).toBe(true);
    expect(own.cannot('delete', 'alerts')).toBe(true);
    expect(own.can('view', 'roles')).toBe(true);
    expect(own.can('change', 'users')).toBe(false);
    expect(own.can('view', 'incidents')).toBe(false);
  });

  it('`manage` stands for every action and `all` for every subject', () => {
    const own = createAbility([
      { action: 'manage', subject: 'users' },
      { action: 'view', subject: 'all' },
    ]);
    expect(own.can('impersonate', 'users')).toBe(true);
    expect(own.can('view', 'incidents')).toBe(true);
    expect(own.can('change', 'incidents')).toBe(false);
    expect(createAbility().can('view', 'users')).toBe(false);
  });

  it('tells its listeners after each update, until they stop listening', () => {
    const own = createAbility();
    const heard: boolean[] = [];
    const stop = own.subscribe(() => heard.push(own.can('view', 'users')));
    own.update([{ action: 'view', subject: 'users' }]);
    own.update([]);
    stop();
    own.update([{ action: 'view', subject: 'users' }]);
    expect(heard).toEqual([true, false]);
    expect(own.rules).toEqual([{ action: 'view', subject: 'users' }]);
  });
});
