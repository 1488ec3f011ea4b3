/** The permissions of the roles the demo creates: provider analysts and leads, customer administrators. */
import type { Permission } from '@vigil/contract';

const all = (basename: string, actions: string[]): Permission => ({ basename, actions });

export const ANALYST_PERMISSIONS: Permission[] = [
  // The dashboard is every analyst's start page.
  all('widgets', ['view', 'add', 'change', 'delete']),
  // One query over every kind of event and the alerts, saved to run on a schedule, and what the runs found.
  all('search', ['view', 'add', 'change', 'delete']),
  all('search/reports', ['view', 'export']),
  all('alerts', ['view', 'change', 'export', 'bulk']),
  all('incidents', ['view', 'add', 'change', 'export']),
  all('mailing', ['view', 'export']),
  all('attaches', ['view', 'download']),
  all('eclipse_events', ['view', 'export']),
  all('network', ['view', 'export']),
  all('events', ['view', 'export']),
  all('warehouse', ['view', 'download']),
  all('warehouse/hashes', ['view']),
  all('indicators', ['view', 'add', 'change', 'export']),
  // The rule behind an alert is shown on its page.
  all('rules/suricata', ['view']),
  all('rules/sigma', ['view']),
  all('rules/yara', ['view']),
  // Which machine, whose, running what: the estate behind every alert.
  all('assets', ['view', 'change']),
  all('assets/ip_hosts', ['view']),
  all('employees', ['view']),
  all('software', ['view']),
  all('software/versions', ['view']),
];

export const PROVIDER_LEAD_PERMISSIONS: Permission[] = [
  ...ANALYST_PERMISSIONS,
  all('indicators', ['view', 'add', 'change', 'delete', 'import', 'export']),
  all('users', ['view', 'add', 'change', 'delete', 'restore', 'reset_two_factor', 'impersonate']),
  all('companies', ['view', 'add', 'change']),
  all('appliances', ['view', 'add', 'change', 'delete']),
  all('matchers', ['view', 'add', 'change', 'delete']),
  // Leads keep the detection content of every customer.
  all('rules/suricata', ['view', 'add', 'change', 'delete', 'import', 'export']),
  all('rules/sigma', ['view', 'add', 'change', 'delete', 'import']),
  all('rules/yara', ['view', 'add', 'change', 'delete', 'import']),
  all('system_logs', ['view']),
];

export const CUSTOMER_ADMIN_PERMISSIONS: Permission[] = [
  all('widgets', ['view', 'add', 'change', 'delete']),
  all('search', ['view', 'add', 'change', 'delete']),
  all('search/reports', ['view']),
  all('alerts', ['view']),
  all('incidents', ['view']),
  all('network', ['view']),
  all('eclipse_events', ['view']),
  all('mailing', ['view']),
  all('indicators', ['view', 'add', 'change', 'delete', 'import', 'export']),
  all('users', ['view', 'add', 'change', 'delete', 'restore', 'reset_two_factor']),
  all('appliances', ['view', 'add', 'delete']),
  all('matchers', ['view', 'add', 'change', 'delete']),
  // A customer turns the provider's rules off for its company, and keeps rules of its own.
  all('rules/suricata', ['view', 'add', 'change', 'delete', 'import']),
  all('rules/sigma', ['view', 'change', 'delete', 'import']),
  all('rules/yara', ['view', 'change', 'delete', 'import']),
  all('system_logs', ['view']),
  // The customer keeps its estate: machines, staff, software.
  all('assets', ['view', 'add', 'change', 'delete', 'export']),
  all('assets/ip_hosts', ['view']),
  all('employees', ['view', 'add', 'change', 'delete']),
  all('software', ['view']),
  all('software/versions', ['view']),
];
