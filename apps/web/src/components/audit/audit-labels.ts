import { valueLabel } from '../../lib/i18n';

/** An audit record's action (`login`, `update`, …) in the interface language; an unknown one as recorded. */
export function auditActionLabel(code: string): string {
  return valueLabel('systemLogs.actions', code);
}

/** An audit record's object type (`user`, `incident_task`, …) in the interface language; an unknown one as recorded. */
export function auditObjectLabel(code: string): string {
  return valueLabel('systemLogs.objectTypes', code);
}

/** Actions the server records, offered as filter suggestions (any other value can be typed). */
export const auditActions = [
  'login',
  'login_failed',
  'login_refused',
  'logout',
  'lock',
  'unlock',
  'two_factor_passed',
  'two_factor_failed',
  'enable_two_factor',
  'disable_two_factor',
  'reset_two_factor',
  'password_change',
  'password_reset',
  'activate',
  'create',
  'update',
  'update_profile',
  'delete',
  'archive',
  'restore',
  'impersonate',
  'impersonate_end',
  'create_token',
  'revoke_token',
  'change_privileged_settings',
  'reset_sso_password',
  'end_session',
  'end_other_sessions',
  'send_custom_mail',
  'mass_changelog',
  'import',
  'comment',
  'raise',
  'deduplicate',
  'bulk_update',
  'matcher',
];

/** Object types the server records, offered as filter suggestions (any other value can be typed). */
export const auditObjectTypes = [
  'user',
  'role',
  'unit',
  'company',
  'company_sso',
  'session',
  'alert',
  'incident',
  'incident_task',
  'incident_grouping',
  'indicator',
  'ingest_token',
  'matcher',
  'widget',
  'dashboard',
  'mail',
  'release_notes',
];
