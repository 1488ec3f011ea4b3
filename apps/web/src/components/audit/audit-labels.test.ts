import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { auditActionLabel, auditActions, auditObjectLabel, auditObjectTypes } from './audit-labels';

beforeAll(async () => {
  await initI18n('ru');
});

describe('the system log in Russian', () => {
  it('names every action and object type the server records', () => {
    // Named: not the code itself, and in Cyrillic (a token such as API may stay).
    const unnamed = (code: string, name: string) => name === code || !/[\u0400-\u04FF]/.test(name);
    expect(auditActions.filter((code) => unnamed(code, auditActionLabel(code)))).toEqual([]);
    expect(auditObjectTypes.filter((code) => unnamed(code, auditObjectLabel(code)))).toEqual([]);
    expect(auditActionLabel('login')).toBe('Вход');
    expect(auditObjectLabel('incident_task')).toBe('Задача инцидента');
  });

  it('shows an action it does not know as recorded', () => {
    expect(auditActionLabel('rotate_keys')).toBe('rotate_keys');
  });
});
