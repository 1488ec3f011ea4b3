import type { AlertSeverity, AlertStatus, IncidentStatus } from '@vigil/contract';
import { useTranslation } from 'react-i18next';

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

export function SeverityBadge({ severity }: { severity: AlertSeverity }) {
  const { t } = useTranslation();
  return (
    <span className={`vigil-pill vigil-pill--${severityColor[severity]} vigil-severity`} data-severity={severity}>
      <span className="vigil-severity__dot" aria-hidden="true" />
      {t(`triage.severity.${severity}`)}
    </span>
  );
}

export function AlertStatusBadge({ status }: { status: AlertStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`vigil-pill vigil-pill--${alertStatusColor[status]}`} data-status={status}>
      {t(`triage.alertStatus.${status}`)}
    </span>
  );
}

export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`vigil-pill vigil-pill--${incidentStatusColor[status]}`} data-status={status}>
      {t(`triage.incidentStatus.${status}`)}
    </span>
  );
}
