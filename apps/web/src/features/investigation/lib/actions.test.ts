// @vitest-environment happy-dom
import { endpointActions } from '@vigil/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, i18next, initI18n } from '../../../lib/i18n';
import { actionLabel, actionOptions } from './actions';

beforeAll(async () => {
  await initI18n('en');
});

afterAll(async () => {
  await changeLanguage('en');
});

describe('endpoint action names', () => {
  it('are translated in English and in Russian, every one of the vocabulary', async () => {
    await changeLanguage('en');
    const english = endpointActions.map((action) => actionLabel(i18next.t, action));
    await changeLanguage('ru');
    const russian = endpointActions.map((action) => actionLabel(i18next.t, action));
    endpointActions.forEach((action, i) => {
      expect(english[i], action).not.toBe(action);
      expect(english[i], action).toMatch(/^[A-Z]/);
      expect(russian[i], action).toMatch(/[а-яё]/i);
      expect(russian[i], action).not.toMatch(/^[A-Za-z -]+$/);
    });
    expect(new Set(english).size).toBe(endpointActions.length);
    expect(new Set(russian).size).toBe(endpointActions.length);
    expect(actionLabel(i18next.t, 'process-create')).toBe('Создание процесса');
  });

  it('show a word outside the vocabulary (stored before it) as it was stored, and nothing for none', async () => {
    await changeLanguage('ru');
    expect(actionLabel(i18next.t, 'start')).toBe('start');
    expect(actionLabel(i18next.t, null)).toBeNull();
  });

  it('offer every action to the filter, sorted by its name in the language', async () => {
    await changeLanguage('en');
    const options = actionOptions(i18next.t);
    expect(options.map((o) => o.value).sort()).toEqual([...endpointActions].sort());
    const labels = options.map((o) => o.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
    expect(options.find((o) => o.value === 'process-access')?.label).toBe('Process opened by another process');
  });
});
