/**
 * English names of the codes sensors send (network and endpoint events), keyed by the code. A code
 * missing here is shown as it came.
 */
export const networkValues = {
  /** Suricata EVE `event_type`. */
  eventType: {
    alert: 'Alert',
    dns: 'DNS',
    http: 'HTTP',
    tls: 'TLS',
    fileinfo: 'File',
    flow: 'Flow',
    anomaly: 'Anomaly',
  },
  flowState: {
    new: 'New',
    established: 'Established',
    closed: 'Closed',
    bypassed: 'Bypassed',
  },
  flowReason: {
    timeout: 'Timeout',
    forced: 'Forced',
    shutdown: 'Sensor shutdown',
    unknown: 'Unknown',
  },
  fileState: {
    CLOSED: 'Complete',
    OPEN: 'In transfer',
    TRUNCATED: 'Truncated',
    ERROR: 'Error',
    UNKNOWN: 'Unknown',
  },
  alertAction: {
    allowed: 'Allowed',
    blocked: 'Blocked',
  },
  dnsType: {
    query: 'Query',
    answer: 'Answer',
  },
  anomalyType: {
    decode: 'Packet decoding',
    stream: 'Stream reassembly',
    applayer: 'Application layer',
  },
};

export const endpointValues = {
  /** `event.category` (ECS categories). */
  categories: {
    authentication: 'Authentication',
    configuration: 'Configuration',
    database: 'Database',
    driver: 'Driver',
    file: 'File',
    host: 'Host',
    iam: 'Accounts and groups',
    intrusion_detection: 'Intrusion detection',
    library: 'Library',
    malware: 'Malware',
    network: 'Network',
    package: 'Package',
    process: 'Process',
    registry: 'Registry',
    session: 'Session',
    web: 'Web',
  },
};
