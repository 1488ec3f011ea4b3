export {
  AlertStatusBadge,
  IncidentStatusBadge,
  SeverityBadge,
  alertStatusColor,
  incidentStatusColor,
  severityColor,
  severityCssColor,
} from './badges';
export * from './pivots';
