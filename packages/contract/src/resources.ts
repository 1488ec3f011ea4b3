/**
 * The resource registry: every kind of object the console lists, with where its API lives,
 * which section of the console shows it and the permission actions that govern it.
 * Server routes, permission checks and the web app's menu are all driven from this table.
 */

/** Actions every resource understands. */
export const baseActions = ['view', 'add', 'change', 'delete'] as const;
export type BaseAction = (typeof baseActions)[number];

/** Sections of the console's navigation. */
export const sections = [
  'dashboard',
  'graph',
  'alerts',
  'incidents',
  'investigation',
  'my_company',
  'warehouse',
  'searches',
  'intelligence',
  'documentation',
  'service_desk',
  'settings',
  'wizards',
  'profile',
] as const;
export type Section = (typeof sections)[number];

export interface ResourceKind {
  /** Basename used in permissions, e.g. `alerts` or `rules/suricata`. */
  readonly basename: string;
  /** Base path of the resource's API, always ending in `/`. */
  readonly apiBase: string;
  /** Console section that shows the resource. */
  readonly section: Section;
  /** Timeline shown on the object's page, when it has one. */
  readonly timeline?: string;
  /** Actions beyond view/add/change/delete that a role may grant. */
  readonly extraActions: readonly string[];
  /** Whether rows belong to a company (tenant data) or are global to the provider. */
  readonly tenant: boolean;
}

function kind(
  basename: string,
  section: Section,
  options: { timeline?: string; extraActions?: readonly string[]; tenant?: boolean } = {},
): ResourceKind {
  return {
    basename,
    apiBase: `/api/${basename}/`,
    section,
    ...(options.timeline ? { timeline: options.timeline } : {}),
    extraActions: options.extraActions ?? [],
    tenant: options.tenant ?? true,
  };
}

/** Every resource kind, in a fixed order. */
export const resourceKinds = [
  kind('widgets', 'dashboard'),
  kind('alerts', 'alerts', { timeline: 'alert_timeline', extraActions: ['export', 'bulk'] }),
  kind('incidents', 'incidents', { timeline: 'incident_timeline', extraActions: ['export'] }),
  kind('mailing', 'investigation', { extraActions: ['export'] }),
  kind('attaches', 'investigation', { extraActions: ['download'] }),
  kind('eclipse_events', 'investigation', { extraActions: ['export'] }),
  kind('network', 'investigation', { extraActions: ['export'] }),
  kind('warehouse', 'warehouse', { extraActions: ['download'] }),
  kind('warehouse/hashes', 'warehouse'),
  kind('search', 'searches'),
  kind('assets', 'my_company', { timeline: 'asset_timeline', extraActions: ['export'] }),
  kind('assets/ip_hosts', 'my_company'),
  kind('software', 'my_company'),
  kind('software/versions', 'my_company'),
  kind('employees', 'my_company'),
  kind('appliances', 'settings'),
  kind('pki', 'settings'),
  kind('users', 'settings', {
    timeline: 'user_timeline',
    extraActions: [
      'impersonate',
      'restore',
      'reset_two_factor',
      'reset_sso_password',
      'change_privileged_settings',
      'send_custom_mail',
      'mass_changelog',
    ],
  }),
  kind('companies', 'settings', { tenant: false }),
  kind('matchers', 'settings'),
  kind('rules/suricata', 'settings', { extraActions: ['import', 'export'] }),
  kind('rules/sigma', 'settings', { extraActions: ['import'] }),
  kind('rules/yara', 'settings', { extraActions: ['import'] }),
  kind('indicators', 'settings', { extraActions: ['import', 'export'] }),
  kind('system_logs', 'settings'),
  kind('appliances/requests', 'settings'),
  kind('search/reports', 'searches', { extraActions: ['export'] }),
  kind('complex-reports', 'searches', { extraActions: ['export'] }),
  kind('ti/reports', 'intelligence', { tenant: false }),
  kind('hub', 'intelligence', { tenant: false }),
  kind('sessions', 'profile', { tenant: false }),
  kind('wizards', 'wizards'),
  kind('assets/remote_session', 'my_company'),
  kind('assets/forensic-reports', 'my_company'),
  kind('assets/scripts', 'my_company', { extraActions: ['execute'] }),
  kind('events', 'investigation', { extraActions: ['export'] }),
] as const satisfies readonly ResourceKind[];

export type ResourceBasename = (typeof resourceKinds)[number]['basename'];

const byBasename = new Map<string, ResourceKind>(resourceKinds.map((r) => [r.basename, r]));

/** Looks a resource kind up by its basename. */
export function findResourceKind(basename: string): ResourceKind | undefined {
  return byBasename.get(basename);
}

/** All actions a role may grant on a resource kind. */
export function actionsOf(resource: ResourceKind): string[] {
  return [...baseActions, ...resource.extraActions];
}
