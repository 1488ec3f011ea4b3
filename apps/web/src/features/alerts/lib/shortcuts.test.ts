// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../../test/answers';
import { changingActions, resolutionForKey, shortcutFor, shortcuts } from './shortcuts';

type Press = Parameters<typeof shortcutFor>[0];
const press = (key: string, extra: Partial<Press> = {}): Press => ({
  key,
  code: '',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  defaultPrevented: false,
  repeat: false,
  target: document.body,
  ...extra,
});

describe('shortcutFor', () => {
  it('maps the triage keys', () => {
    expect(shortcutFor(press('j'))).toBe('next');
    expect(shortcutFor(press('ArrowDown'))).toBe('next');
    expect(shortcutFor(press('k'))).toBe('previous');
    expect(shortcutFor(press('Enter'))).toBe('open');
    expect(shortcutFor(press('o'))).toBe('open');
    expect(shortcutFor(press('x'))).toBe('toggleSelect');
    expect(shortcutFor(press('a'))).toBe('assignToMe');
    expect(shortcutFor(press('c'))).toBe('close');
    expect(shortcutFor(press('r'))).toBe('resolve');
    expect(shortcutFor(press('/'))).toBe('focusSearch');
    expect(shortcutFor(press('?'))).toBe('help');
    expect(shortcutFor(press('z'))).toBeNull();
  });

  it('stays quiet while the user types', () => {
    const input = document.createElement('input');
    const textarea = document.createElement('textarea');
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    const combobox = document.createElement('div');
    combobox.setAttribute('role', 'combobox');
    for (const target of [input, textarea, combobox]) expect(shortcutFor(press('c', { target }))).toBeNull();
    // happy-dom does not compute isContentEditable from the attribute; the check reads the property.
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    expect(shortcutFor(press('c', { target: editable }))).toBeNull();
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    expect(shortcutFor(press('x', { target: checkbox }))).toBe('toggleSelect');
  });

  it('leaves keys with modifiers, inside dialogs, or already handled alone', () => {
    expect(shortcutFor(press('c', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('r', { metaKey: true }))).toBeNull();
    expect(shortcutFor(press('a', { altKey: true }))).toBeNull();
    expect(shortcutFor(press('ArrowDown', { defaultPrevented: true }))).toBeNull();
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = document.createElement('button');
    dialog.append(button);
    expect(shortcutFor(press('c', { target: button }))).toBeNull();
  });

  it('reads the physical key under another layout', () => {
    expect(shortcutFor(press('о', { code: 'KeyJ' }))).toBe('next');
    expect(shortcutFor(press('с', { code: 'KeyC' }))).toBe('close');
    expect(shortcutFor(press('z', { code: 'KeyC' }))).toBeNull();
  });

  it('repeats moves but never a change when a key is held', () => {
    expect(shortcutFor(press('j', { repeat: true }))).toBe('next');
    expect(shortcutFor(press('c', { repeat: true }))).toBeNull();
  });

  it('lists every action once, and every changing action exists', () => {
    const actions = shortcuts.map((s) => s.action);
    expect(new Set(actions).size).toBe(actions.length);
    for (const action of changingActions) expect(actions).toContain(action);
  });
});

describe('resolutionForKey', () => {
  it('takes a digit or the first letter', () => {
    expectAnswers(resolutionForKey, [
      ['1', 'true_positive'],
      ['f', 'false_positive'],
      ['B', 'benign'],
      ['4', 'duplicate'],
      ['9', null],
    ]);
  });
});
