/**
 * The contract's plain values: enumerations, workflow tables and limits, with no schema library, so
 * the console can use them without downloading the schemas. The schemas build on them.
 */

export const alertSeverityValues = ['info', 'low', 'medium', 'high', 'critical'] as const;

export const alertStatuses = ['new', 'in_progress', 'resolved', 'closed'] as const;

export const alertResolutions = ['true_positive', 'false_positive', 'benign', 'duplicate'] as const;

export const alertSources = ['network', 'endpoint', 'mail'] as const;

export const incidentStatuses = ['open', 'investigating', 'contained', 'resolved', 'closed'] as const;

export type IncidentStatus = (typeof incidentStatuses)[number];

/**
 * The incident workflow: where each status may go next. Work moves forward (open → investigating →
 * contained → resolved → closed, steps may be skipped); a resolved or closed incident may only be
 * reopened into investigation, so its SLA timers and history stay honest. Nothing returns to open.
 */
export const incidentTransitions: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  open: ['investigating', 'contained', 'resolved', 'closed'],
  investigating: ['contained', 'resolved', 'closed'],
  contained: ['investigating', 'resolved', 'closed'],
  resolved: ['closed', 'investigating'],
  closed: ['investigating'],
};

/** Whether an incident may move from one status to another (staying put is always allowed). */
export function canIncidentTransition(from: IncidentStatus, to: IncidentStatus): boolean {
  return from === to || incidentTransitions[from].includes(to);
}

export const taskStatuses = ['todo', 'in_progress', 'done'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

export const graphNodeKinds = [
  'alert',
  'incident',
  'host',
  'user',
  'ip',
  'domain',
  'url',
  'hash',
  'file',
  'process',
  'mail',
  'email',
] as const;
export type GraphNodeKind = (typeof graphNodeKinds)[number];

/** What a dashboard widget shows; each kind has its own query over the tenant's data. */
export const widgetKinds = [
  'alerts_by_severity',
  'open_alerts_by_status',
  'top_signatures',
  'top_hosts',
  'top_source_ips',
  'top_destination_ips',
  'open_incidents_by_severity',
  'time_to_acknowledge',
  'time_to_resolve',
  'ingest_rate',
] as const;
export type WidgetKind = (typeof widgetKinds)[number];

/** Share of the dashboard's width a widget takes. */
export const widgetSizes = ['third', 'half', 'full'] as const;
export type WidgetSize = (typeof widgetSizes)[number];

/** Kinds whose answer is a time series (buckets of an hour or a day in the caller's zone). */
export const seriesWidgetKinds = ['alerts_by_severity', 'ingest_rate'] as const satisfies readonly WidgetKind[];
/** Kinds that list the largest values; their settings may say how many. */
export const topWidgetKinds = [
  'top_signatures',
  'top_hosts',
  'top_source_ips',
  'top_destination_ips',
] as const satisfies readonly WidgetKind[];
/** Kinds that show the state now and ignore the period. */
export const snapshotWidgetKinds = [
  'open_alerts_by_status',
  'open_incidents_by_severity',
] as const satisfies readonly WidgetKind[];

export const WIDGET_TOP_DEFAULT = 10;
export const WIDGETS_PER_USER_MAX = 30;
/** The longest period a widget may cover, so every query stays bounded. */
export const WIDGET_PERIOD_MAX_DAYS = 366;

/** What an attachment's bytes are, by magic bytes (scripts and unknown bytes by file name). */
export const detectedFileTypes = [
  'pe',
  'elf',
  'mach-o',
  'pdf',
  'ooxml',
  'zip',
  'ole2',
  'rtf',
  'rar',
  '7z',
  'gzip',
  'iso',
  'lnk',
  'png',
  'jpeg',
  'gif',
  /** An HTML page (by its first tags, else by its name or media type): opens in a browser from disk. */
  'html',
  /** An SVG image: XML that can carry links and scripts. */
  'svg',
  'script',
  'unknown',
] as const;

/** Why the system answers 423: an administrator turned maintenance on, or the database is being migrated. */
export const maintenanceReasons = ['administrator', 'migration'] as const;
export type MaintenanceReason = (typeof maintenanceReasons)[number];

/** Seconds a client should wait before asking again while the system is being updated (also in `Retry-After`). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 5;

/** Longest normalised string field; Windows' own limit for a command line is 32,767. */
export const MAX_EVENT_STRING = 32_768;

/** Largest rule file an import takes, and largest sum of the files of one import (in bytes of UTF-8). */
export const MAX_RULE_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_RULE_IMPORT_BYTES = 20 * 1024 * 1024;

/** Largest event text and largest file (decoded) a rule test takes. */
export const MAX_RULE_TEST_EVENT_BYTES = 1024 * 1024;
export const MAX_RULE_TEST_FILE_BYTES = 10 * 1024 * 1024;

/** What kind of machine an asset is. */
export const assetKindValues = ['workstation', 'server', 'network_device', 'mobile', 'other'] as const;
/** How much the company depends on an asset, lowest first. */
export const assetCriticalityValues = ['low', 'medium', 'high', 'critical'] as const;
/** Where a claim "this asset held this address" comes from. */
export const ipHostSourceValues = ['dhcp', 'endpoint', 'dns', 'flow', 'static', 'manual'] as const;

/** Columns of the asset CSV import, in the order an export would write them (only `name` is required). */
export const assetCsvColumnValues = [
  'name',
  'kind',
  'os_name',
  'os_version',
  'ips',
  'macs',
  'fqdn',
  'criticality',
  'tags',
  'agent_id',
  'notes',
] as const;
