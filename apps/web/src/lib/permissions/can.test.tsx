// @vitest-environment happy-dom
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { updateAbility } from './ability';
import { AbilityProvider, Can, useAbility, usePermission } from './can';

afterEach(() => {
  cleanup();
  act(() => updateAbility(null));
});

describe('Can', () => {
  it('shows its children only while the user may, following each update', () => {
    updateAbility([{ basename: 'users', actions: ['view'] }]);
    render(
      <AbilityProvider>
        <Can I="add" a="users">
          <button type="button">Add user</button>
        </Can>
        <Can I="view" a="users">
          <span>Users</span>
        </Can>
        <Can not I="add" a="users">
          <span>Read only</span>
        </Can>
      </AbilityProvider>,
    );
    expect(screen.queryByText('Add user')).toBeNull();
    expect(screen.getByText('Users')).toBeTruthy();
    expect(screen.getByText('Read only')).toBeTruthy();
    act(() => updateAbility([{ basename: 'users', actions: ['view', 'add'] }]));
    expect(screen.getByText('Add user')).toBeTruthy();
    expect(screen.queryByText('Read only')).toBeNull();
    act(() => updateAbility(null));
    expect(screen.queryByText('Add user')).toBeNull();
    expect(screen.queryByText('Users')).toBeNull();
  });

  it('passes the answer to a function child with passThrough', () => {
    render(
      <Can I="delete" an="alerts" passThrough>
        {(allowed) => <span>{allowed ? 'may delete' : 'may not delete'}</span>}
      </Can>,
    );
    expect(screen.getByText('may not delete')).toBeTruthy();
    act(() => updateAbility([{ basename: 'alerts', actions: ['delete'] }]));
    expect(screen.getByText('may delete')).toBeTruthy();
  });
});

describe('usePermission and useAbility', () => {
  it('answer again after each update; nothing required is always allowed', () => {
    const { result } = renderHook(() => ({
      view: usePermission({ action: 'view', subject: 'incidents' }),
      nothing: usePermission(undefined),
      ability: useAbility(),
    }));
    expect(result.current.view).toBe(false);
    expect(result.current.nothing).toBe(true);
    act(() => updateAbility([{ basename: 'incidents', actions: ['view'] }]));
    expect(result.current.view).toBe(true);
    expect(result.current.ability.can('view', 'incidents')).toBe(true);
  });
});
