/** English texts shared by the triage pages: severities, statuses, resolutions, sources. */
export const triage = {
  severity: { info: 'Info', low: 'Low', medium: 'Medium', high: 'High', critical: 'Critical' },
  alertStatus: { new: 'New', in_progress: 'In progress', resolved: 'Resolved', closed: 'Closed' },
  resolution: {
    true_positive: 'True positive',
    false_positive: 'False positive',
    benign: 'Benign',
    duplicate: 'Duplicate',
  },
  source: { network: 'Network', endpoint: 'Endpoint', mail: 'Mail' },
  incidentStatus: {
    open: 'Open',
    investigating: 'Investigating',
    contained: 'Contained',
    resolved: 'Resolved',
    closed: 'Closed',
  },
  taskStatus: { todo: 'To do', in_progress: 'In progress', done: 'Done' },
  unassigned: 'Unassigned',
  me: 'Me',
  timeRange: {
    label: 'Time',
    any: 'Any time',
    lastHour: 'Last hour',
    last24h: 'Last 24 hours',
    last7d: 'Last 7 days',
    last30d: 'Last 30 days',
    custom: 'Custom range',
  },
};
