import type { AlertSeverity, AlertStatus, IncidentStatus } from '@vigil/contract';
import { alertSeverityValues, alertStatuses, incidentStatuses } from '@vigil/contract/client';
import type { TFunction } from '../../lib/i18n';
import { useMemo, type ReactElement } from 'react';
import { useTranslation } from '../../lib/i18n';

/** Colour of each severity, the same on every page and chart. */
export const severityColor: Record<AlertSeverity, 'grey' | 'blue' | 'yellow' | 'orange' | 'red'> = {
  info: 'grey',
  low: 'blue',
  medium: 'yellow',
  high: 'orange',
  critical: 'red',
};

export const alertStatusColor: Record<AlertStatus, 'blue' | 'yellow' | 'green' | 'grey'> = {
  new: 'blue',
  in_progress: 'yellow',
  resolved: 'green',
  closed: 'grey',
};

export const incidentStatusColor: Record<IncidentStatus, 'red' | 'yellow' | 'purple' | 'green' | 'grey'> = {
  open: 'red',
  investigating: 'yellow',
  contained: 'purple',
  resolved: 'green',
  closed: 'grey',
};

/** The theme's CSS colour of a severity (for charts and markers). */
export const severityCssColor = (severity: AlertSeverity) => `var(--vigil-status-${severityColor[severity]})`;

/** The translated names of severities and statuses, read once for a whole table (rows call no hooks). */
export interface TriageLabels {
  severity: Record<AlertSeverity, string>;
  alertStatus: Record<AlertStatus, string>;
  incidentStatus: Record<IncidentStatus, string>;
}

function labelsOf<K extends string>(values: readonly K[], name: (value: K) => string): Record<K, string> {
  return Object.fromEntries(values.map((value) => [value, name(value)])) as Record<K, string>;
}

/** Every triage label in the current language. */
export function triageLabels(t: TFunction): TriageLabels {
  return {
    severity: labelsOf(alertSeverityValues, (value) => t(`triage.severity.${value}`)),
    alertStatus: labelsOf(alertStatuses, (value) => t(`triage.alertStatus.${value}`)),
    incidentStatus: labelsOf(incidentStatuses, (value) => t(`triage.incidentStatus.${value}`)),
  };
}

/** The triage labels, made again only when the language changes. */
export function useTriageLabels(): TriageLabels {
  const { t } = useTranslation();
  return useMemo(() => triageLabels(t), [t]);
}

/*
 * Plain elements for table rows: a function call, not a component, so a row that scrolls into view
 * mounts a few spans and nothing else. The badges below draw the very same markup.
 */

export function severityPill(severity: AlertSeverity, label: string): ReactElement {
  return (
    <span className={`vigil-pill vigil-pill--${severityColor[severity]} vigil-severity`} data-severity={severity}>
      <span className="vigil-severity__dot" aria-hidden="true" />
      {label}
    </span>
  );
}

export function alertStatusPill(status: AlertStatus, label: string): ReactElement {
  return (
    <span className={`vigil-pill vigil-pill--${alertStatusColor[status]}`} data-status={status}>
      {label}
    </span>
  );
}

export function incidentStatusPill(status: IncidentStatus, label: string): ReactElement {
  return (
    <span className={`vigil-pill vigil-pill--${incidentStatusColor[status]}`} data-status={status}>
      {label}
    </span>
  );
}

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  const { t } = useTranslation();
  return severityPill(severity, t(`triage.severity.${severity}`));
}

export function AlertStatusBadge({ status }: { status: AlertStatus }) {
  const { t } = useTranslation();
  return alertStatusPill(status, t(`triage.alertStatus.${status}`));
}

export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  const { t } = useTranslation();
  return incidentStatusPill(status, t(`triage.incidentStatus.${status}`));
}
