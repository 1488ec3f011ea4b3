export {
  AlertStatusBadge,
  IncidentStatusBadge,
  SeverityBadge,
  alertStatusColor,
  alertStatusPill,
  incidentStatusColor,
  incidentStatusPill,
  severityColor,
  severityCssColor,
  severityPill,
  triageLabels,
  useTriageLabels,
  type TriageLabels,
} from './badges';
export * from './pivots';
export * from './rule-metadata';
export { GraphButton } from './graph-button';
