import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../test/answers';
import { camelizeKeys, snakeizeKeys, toCamelCase, toSnakeCase } from './case';

describe('camelCase ⇄ snake_case at the edge', () => {
  it('converts names', () => {
    expectAnswers(toCamelCase, [
      ['two_factor_passed', 'twoFactorPassed'],
      ['sso_authorize_url', 'ssoAuthorizeUrl'],
      ['id', 'id'],
    ]);
    expect(toSnakeCase('newPasswordRetry')).toBe('new_password_retry');
    expect(toSnakeCase('pageSize')).toBe('page_size');
  });

  it('converts nested objects and arrays, and round-trips', () => {
    const wire = {
      first_name: 'Ada',
      telephone_notifications_settings: { weekdays: { enabled: true } },
      permissions: [{ basename: 'system_logs', actions: ['view'] }],
      label: { company_name: null },
      sessions_count: 0,
    };
    const camel = camelizeKeys(wire);
    expect(camel).toEqual({
      firstName: 'Ada',
      telephoneNotificationsSettings: { weekdays: { enabled: true } },
      permissions: [{ basename: 'system_logs', actions: ['view'] }],
      label: { companyName: null },
      sessionsCount: 0,
    });
    expect(snakeizeKeys(camel)).toEqual(wire);
  });

  it('keeps the keys of data maps (changed fields, privileged flags) as they are', () => {
    const camel = camelizeKeys({
      changes: { first_name: { before: 'a', after: 'b' } },
      privileged_settings: { api_tokens: true },
    });
    expect(camel).toEqual({
      changes: { first_name: { before: 'a', after: 'b' } },
      privilegedSettings: { api_tokens: true },
    });
    expect(snakeizeKeys({ privilegedSettings: { raw_export: true } })).toEqual({
      privileged_settings: { raw_export: true },
    });
  });

  it("keeps the keys of a rule's metadata as the rule wrote them", () => {
    const camel = camelizeKeys({
      alert: { signature_id: 1, metadata: { signature_severity: ['Major'], mitre_tactic_id: ['TA0001'] } },
    });
    expect(camel).toEqual({
      alert: { signatureId: 1, metadata: { signature_severity: ['Major'], mitre_tactic_id: ['TA0001'] } },
    });
  });

  it('leaves values alone', () => {
    expect(camelizeKeys({ some_key: 'snake_value', list: ['a_b'], when: null })).toEqual({
      someKey: 'snake_value',
      list: ['a_b'],
      when: null,
    });
  });
});
